package dev.attribution.command.imports;

import org.postgresql.copy.CopyIn;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;

/** Rows in PostgreSQL's {@code COPY … FROM STDIN} text format, built in a buffer and sent in chunks. */
public final class CopyText {

    private CopyText() {
    }

    /** Sends the buffered rows to {@code copy} and empties the buffer. */
    public static void flush(CopyIn copy, StringBuilder buf) {
        if (buf.length() == 0) {
            return;
        }
        byte[] bytes = buf.toString().getBytes(StandardCharsets.UTF_8);
        try {
            copy.writeToCopy(bytes, 0, bytes.length);
        } catch (SQLException e) {
            throw new IllegalStateException("COPY failed: " + e.getMessage(), e);
        }
        buf.setLength(0);
    }

    /** A value followed by the column separator. */
    public static void field(StringBuilder buf, String value) {
        escape(buf, value);
        buf.append('\t');
    }

    /** A value with backslash, tab and line breaks escaped. */
    public static void escape(StringBuilder buf, String value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            switch (ch) {
                case '\\' -> buf.append("\\\\");
                case '\t' -> buf.append("\\t");
                case '\n' -> buf.append("\\n");
                case '\r' -> buf.append("\\r");
                default -> buf.append(ch);
            }
        }
    }
}
