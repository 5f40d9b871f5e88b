package dev.attribution.command.adspend;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;

/**
 * Reads a spend file, CSV with a header row or JSON lines (one object per line), detected from the first
 * non-blank character. Column names match without regard to case or underscores ({@code ad_id} = {@code adId}).
 * A bad line stops the read with a {@link SpendFileException} naming the line.
 */
public final class SpendFileReader {

    static final List<String> REQUIRED = List.of("platform", "adaccountid", "adid", "date", "spend");

    private SpendFileReader() {
    }

    /** Parses every row of {@code in}, handing each to {@code sink}; returns the number of rows. */
    public static long read(Reader in, String defaultCurrency, Consumer<SpendRow> sink) {
        try (BufferedReader r = new BufferedReader(in, 1 << 16)) {
            String first = r.readLine();
            long line = 1;
            while (first != null && first.isBlank()) {
                first = r.readLine();
                line++;
            }
            if (first == null) {
                return 0;
            }
            long rows = 0;
            if (first.trim().startsWith("{")) {
                String text = first;
                while (text != null) {
                    if (!text.isBlank()) {
                        sink.accept(row(line, json(line, text), defaultCurrency));
                        rows++;
                    }
                    text = r.readLine();
                    line++;
                }
                return rows;
            }
            List<String> header = csv(first).stream().map(SpendFileReader::norm).toList();
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                index.putIfAbsent(header.get(i), i);
            }
            for (String required : REQUIRED) {
                if (!header.contains(required)) {
                    throw new SpendFileException(line, "the header has no column " + required);
                }
            }
            String text;
            while ((text = r.readLine()) != null) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                List<String> cells = csv(text);
                if (cells.size() != header.size()) {
                    throw new SpendFileException(line, "expected " + header.size() + " columns, found " + cells.size());
                }
                Map<String, String> values = new CellMap(index, cells);
                sink.accept(row(line, values, defaultCurrency));
                rows++;
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Map<String, String> json(long line, String text) {
        JsonNode node;
        try {
            node = JsonBody.mapper().readTree(text);
        } catch (IOException e) {
            throw new SpendFileException(line, "not a JSON object");
        }
        if (node == null || !node.isObject()) {
            throw new SpendFileException(line, "not a JSON object");
        }
        Map<String, String> values = new HashMap<>();
        node.fields().forEachRemaining(e -> values.put(norm(e.getKey()), e.getValue().isNull() ? "" : e.getValue().asText()));
        return values;
    }

    static SpendRow row(long line, Map<String, String> v, String defaultCurrency) {
        String platform = text(v, "platform").toUpperCase(Locale.ROOT);
        if (!AdPlatforms.ALL.contains(platform)) {
            throw new SpendFileException(line, "invalid platform '" + text(v, "platform") + "'. Accepted values: "
                    + String.join(", ", AdPlatforms.ALL));
        }
        String adAccount = required(line, v, "adaccountid");
        String adId = required(line, v, "adid");
        LocalDate day;
        try {
            day = LocalDate.parse(required(line, v, "date"));
        } catch (DateTimeParseException e) {
            throw new SpendFileException(line, "invalid date '" + text(v, "date") + "', expected yyyy-MM-dd");
        }
        String currency = text(v, "currency").toUpperCase(Locale.ROOT);
        if (currency.isEmpty()) {
            currency = defaultCurrency;
        } else if (!currency.matches("[A-Z]{3}")) {
            throw new SpendFileException(line, "invalid currency '" + currency + "', expected a three-letter code");
        }
        return new SpendRow(line, platform, adAccount, text(v, "campaignid"), text(v, "adsetid"), adId, day,
                money(line, v, "spend", true), count(line, v, "impressions"), count(line, v, "clicks"),
                count(line, v, "videoviews"), money(line, v, "reportedconversions", false),
                money(line, v, "reportedrevenue", false), currency,
                text(v, "keywordid"), text(v, "keyword"), text(v, "matchtype"));
    }

    private static String text(Map<String, String> v, String name) {
        String s = v.get(name);
        return s == null ? "" : s.trim();
    }

    private static String required(long line, Map<String, String> v, String name) {
        String s = text(v, name);
        if (s.isEmpty()) {
            throw new SpendFileException(line, "missing " + name);
        }
        return s;
    }

    private static BigDecimal money(long line, Map<String, String> v, String name, boolean required) {
        String s = required ? required(line, v, name) : text(v, name);
        if (s.isEmpty()) {
            return BigDecimal.ZERO;
        }
        try {
            BigDecimal d = new BigDecimal(s);
            if (d.signum() < 0 || d.precision() - d.scale() > 16) {
                throw new SpendFileException(line, name + " must be a non-negative number below 10^16");
            }
            return d;
        } catch (NumberFormatException e) {
            throw new SpendFileException(line, name + " is not a number: '" + s + "'");
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
                throw new SpendFileException(line, name + " must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new SpendFileException(line, name + " is not a whole number: '" + s + "'");
        }
    }

    /** A CSV record read by column name through the header's index (no per-row map is built). */
    private static final class CellMap extends java.util.AbstractMap<String, String> {
        private final Map<String, Integer> index;
        private final List<String> cells;

        CellMap(Map<String, Integer> index, List<String> cells) {
            this.index = index;
            this.cells = cells;
        }

        @Override
        public String get(Object key) {
            Integer i = index.get(key);
            return i == null ? null : cells.get(i);
        }

        @Override
        public java.util.Set<Entry<String, String>> entrySet() {
            throw new UnsupportedOperationException();
        }
    }

    /** Column name key: lower case without underscores, dashes or spaces. */
    static String norm(String name) {
        StringBuilder b = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c != '_' && c != '-' && c != ' ' && c != '\uFEFF') {
                b.append(Character.toLowerCase(c));
            }
        }
        return b.toString();
    }

    /** One CSV record (RFC 4180 quoting within a line). */
    static List<String> csv(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < text.length() && text.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        out.add(cell.toString());
        return out;
    }
}
