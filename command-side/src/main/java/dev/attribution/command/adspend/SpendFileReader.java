package dev.attribution.command.adspend;

import java.io.Reader;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import dev.attribution.command.imports.ImportFileException;
import dev.attribution.command.imports.RowFile;

import static dev.attribution.command.imports.RowFile.required;
import static dev.attribution.command.imports.RowFile.text;

/**
 * Reads a spend file ({@link RowFile}: CSV with a header row or JSON lines) into {@link SpendRow}s. A bad line stops
 * the read with an {@link ImportFileException} naming the line.
 */
public final class SpendFileReader {

    static final List<String> REQUIRED = List.of("platform", "adaccountid", "adid", "date", "spend");

    private SpendFileReader() {
    }

    /** Parses every row of {@code in}, handing each to {@code sink}; returns the number of rows. */
    public static long read(Reader in, String defaultCurrency, Consumer<SpendRow> sink) {
        return RowFile.read(in, REQUIRED, (line, values) -> sink.accept(row(line, values, defaultCurrency)));
    }

    static SpendRow row(long line, Map<String, String> v, String defaultCurrency) {
        String platform = text(v, "platform").toUpperCase(Locale.ROOT);
        if (!AdPlatforms.ALL.contains(platform)) {
            throw new ImportFileException(line, "invalid platform '" + text(v, "platform") + "'. Accepted values: "
                    + String.join(", ", AdPlatforms.ALL));
        }
        String adAccount = required(line, v, "adaccountid");
        String adId = required(line, v, "adid");
        LocalDate day;
        try {
            day = LocalDate.parse(required(line, v, "date"));
        } catch (DateTimeParseException e) {
            throw new ImportFileException(line, "invalid date '" + text(v, "date") + "', expected yyyy-MM-dd");
        }
        String currency = text(v, "currency").toUpperCase(Locale.ROOT);
        if (currency.isEmpty()) {
            currency = defaultCurrency;
        } else if (!currency.matches("[A-Z]{3}")) {
            throw new ImportFileException(line, "invalid currency '" + currency + "', expected a three-letter code");
        }
        return new SpendRow(line, platform, adAccount, text(v, "campaignid"), text(v, "adsetid"), adId, day,
                money(line, v, "spend", true), count(line, v, "impressions"), count(line, v, "clicks"),
                count(line, v, "videoviews"), money(line, v, "reportedconversions", false),
                money(line, v, "reportedrevenue", false), currency,
                text(v, "keywordid"), text(v, "keyword"), text(v, "matchtype"), text(v, "adname"));
    }

    private static BigDecimal money(long line, Map<String, String> v, String name, boolean required) {
        String s = required ? required(line, v, name) : text(v, name);
        if (s.isEmpty()) {
            return BigDecimal.ZERO;
        }
        try {
            BigDecimal d = new BigDecimal(s);
            if (d.signum() < 0 || d.precision() - d.scale() > 16) {
                throw new ImportFileException(line, name + " must be a non-negative number below 10^16");
            }
            return d;
        } catch (NumberFormatException e) {
            throw new ImportFileException(line, name + " is not a number: '" + s + "'");
        }
    }

    private static long count(long line, Map<String, String> v, String name) {
        String s = text(v, name);
        if (s.isEmpty()) {
            return 0;
        }
        try {
            long n = Long.parseLong(s);
            if (n < 0) {
                throw new ImportFileException(line, name + " must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new ImportFileException(line, name + " is not a whole number: '" + s + "'");
        }
    }
}
