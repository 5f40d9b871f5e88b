package dev.attribution.command.imports;

/** A line of an import file that cannot be imported; nothing of the file is kept. The message names the line. */
public class ImportFileException extends RuntimeException {

    private final long line;

    public ImportFileException(long line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    public long line() {
        return line;
    }
}
