package dev.attribution.command.imports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file format shared by the imports of this service (docs/ad-spend-import.md, docs/email-events.md): CSV with a
 * header row (RFC 4180 quoting within a line; columns in any order, extra columns ignored) or JSON lines (one object
 * per line), detected from the first non-blank character ({@code {} = JSON lines). Blank lines are skipped. Column
 * and key names match without regard to case, {@code _}, {@code -} or spaces ({@code ad_id} = {@code adId} =
 * {@code Ad Id}). A line that cannot be read stops the read with an {@link ImportFileException} naming it; so does a
 * NUL character, which PostgreSQL text cannot hold.
 */
public final class RowFile {

    /** Receives each row: its line number and its values by {@link #norm normalised} column name. */
    @FunctionalInterface
    public interface RowHandler {
        void row(long line, Map<String, String> values);
    }

    private RowFile() {
    }

    /**
     * Reads every row of {@code in}, handing each to {@code handler}; returns the number of rows. A CSV header must
     * name every column of {@code required} (given {@link #norm normalised}).
     */
    public static long read(Reader in, List<String> required, RowHandler handler) {
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
                        handler.row(line, json(line, noNul(line, text)));
                        rows++;
                    }
                    text = r.readLine();
                    line++;
                }
                return rows;
            }
            List<String> header = csv(first).stream().map(RowFile::norm).toList();
            Map<String, Integer> index = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                index.putIfAbsent(header.get(i), i);
            }
            for (String column : required) {
                if (!header.contains(column)) {
                    throw new ImportFileException(line, "the header has no column " + column);
                }
            }
            String text;
            while ((text = r.readLine()) != null) {
                line++;
                if (text.isBlank()) {
                    continue;
                }
                List<String> cells = csv(noNul(line, text));
                if (cells.size() != header.size()) {
                    throw new ImportFileException(line, "expected " + header.size() + " columns, found " + cells.size());
                }
                handler.row(line, new CellMap(index, cells));
                rows++;
            }
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The trimmed value of a column, empty when absent. */
    public static String text(Map<String, String> values, String column) {
        String s = values.get(column);
        return s == null ? "" : s.trim();
    }

    /** The trimmed value of a column; {@code missing <column>} when absent or empty. */
    public static String required(long line, Map<String, String> values, String column) {
        String s = text(values, column);
        if (s.isEmpty()) {
            throw new ImportFileException(line, "missing " + column);
        }
        return s;
    }

    private static Map<String, String> json(long line, String text) {
        JsonNode node;
        try {
            node = JsonBody.mapper().readTree(text);
        } catch (IOException e) {
            throw new ImportFileException(line, "not a JSON object");
        }
        if (node == null || !node.isObject()) {
            throw new ImportFileException(line, "not a JSON object");
        }
        Map<String, String> values = new HashMap<>();
        node.fields().forEachRemaining(e -> values.put(norm(e.getKey()),
                e.getValue().isNull() ? "" : noNul(line, e.getValue().asText())));
        return values;
    }

    private static String noNul(long line, String text) {
        if (text.indexOf('\0') >= 0) {
            throw new ImportFileException(line, "contains a NUL character");
        }
        return text;
    }

    /** A CSV record read by column name through the header's index (no per-row map is built). */
    private static final class CellMap extends AbstractMap<String, String> {
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
        public Set<Entry<String, String>> entrySet() {
            throw new UnsupportedOperationException();
        }
    }

    /** Column name key: lower case without underscores, dashes, spaces or a byte order mark. */
    public static String norm(String name) {
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
