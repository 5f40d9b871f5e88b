package dev.attribution.command.emailevents;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.command.imports.ImportFileException;
import dev.attribution.command.imports.RowFile;

import java.io.Reader;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import static dev.attribution.command.imports.RowFile.required;
import static dev.attribution.command.imports.RowFile.text;

/**
 * Reads an email-event file ({@link RowFile}: CSV with a header row or JSON lines) into {@link EmailEventRow}s. A
 * bad line stops the read with an {@link ImportFileException} naming the line.
 */
public final class EmailEventFileReader {

    static final List<String> REQUIRED = List.of("messageid", "type", "date");
    /** File types and the journey event type each becomes (spec 2.17). */
    static final Map<String, String> TYPES = Map.of("sent", "email", "open", "email-open");
    static final int MAX_TEXT = 255;

    private EmailEventFileReader() {
    }

    /** Parses every row of {@code in}, handing each to {@code sink}; returns the number of rows. */
    public static long read(Reader in, Consumer<EmailEventRow> sink) {
        return RowFile.read(in, REQUIRED, (line, values) -> sink.accept(row(line, values)));
    }

    static EmailEventRow row(long line, Map<String, String> v) {
        String leadId = text(v, "leadid");
        String email = first(text(v, "leademail"), text(v, "email"));
        if (leadId.isEmpty() && email.isEmpty()) {
            throw new ImportFileException(line, "missing leademail (or leadid)");
        }
        String kind = required(line, v, "type").toLowerCase(Locale.ROOT);
        if (!TYPES.containsKey(kind)) {
            throw new ImportFileException(line, "invalid type '" + text(v, "type") + "'. Accepted values: sent, open");
        }
        String date = required(line, v, "date");
        Instant at;
        try {
            at = ApiDates.parseWrite(date);
        } catch (ApiException e) {
            throw new ImportFileException(line, "invalid date '" + date + "'. " + ApiDates.INVALID_DATE_FORMAT);
        }
        return new EmailEventRow(line, leadId, email, bounded(line, "messageid", required(line, v, "messageid")), kind, at,
                bounded(line, "name", first(text(v, "name"), text(v, "subject"))), bounded(line, "provider", text(v, "provider")));
    }

    private static String first(String value, String alternative) {
        return value.isEmpty() ? alternative : value;
    }

    private static String bounded(long line, String column, String value) {
        if (value.length() > MAX_TEXT) {
            throw new ImportFileException(line, column + " must be at most " + MAX_TEXT + " characters");
        }
        return value;
    }
}
