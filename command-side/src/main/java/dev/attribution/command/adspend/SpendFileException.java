package dev.attribution.command.adspend;

/** A spend file line that cannot be imported; nothing of the file is kept. */
public class SpendFileException extends RuntimeException {

    private final long line;

    public SpendFileException(long line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    public long line() {
        return line;
    }
}
