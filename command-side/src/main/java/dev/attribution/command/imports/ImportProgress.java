package dev.attribution.command.imports;

/** Progress of a file import: rows read so far, every {@link #EVERY} rows, then once more at the end ({@code done}). */
public interface ImportProgress {

    int EVERY = 50_000;

    ImportProgress NONE = (read, done) -> { };

    void rows(long read, boolean done);
}
