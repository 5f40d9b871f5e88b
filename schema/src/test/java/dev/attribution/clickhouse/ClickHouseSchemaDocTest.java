package dev.attribution.clickhouse;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ClickHouse tables are a public interface for BI tools: every column of every table the DDL files create (and
 * every column they add) has a row with a meaning in docs/clickhouse-schema.md, under the table's own heading.
 */
class ClickHouseSchemaDocTest {

    private static final Pattern CREATE = Pattern.compile("CREATE TABLE IF NOT EXISTS \\{db}\\.(\\w+)\\s*\\((.*?)\\)\\s*ENGINE", Pattern.DOTALL);
    private static final Pattern ADD = Pattern.compile("ALTER TABLE \\{db}\\.(\\w+) ADD COLUMN (?:IF NOT EXISTS )?(\\w+)");
    private static final Pattern COLUMN = Pattern.compile("^\\s*(\\w+)\\s+\\S", Pattern.MULTILINE);

    @Test
    void everyColumnOfEveryTableIsDocumented() throws IOException {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        for (ClickHouseSchema.DdlFile file : ClickHouseSchema.files()) {
            for (String statement : file.statements()) {
                Matcher create = CREATE.matcher(statement);
                if (create.find()) {
                    Matcher column = COLUMN.matcher(create.group(2));
                    while (column.find()) {
                        columns.computeIfAbsent(create.group(1), t -> new ArrayList<>()).add(column.group(1));
                    }
                }
                Matcher add = ADD.matcher(statement);
                if (add.find()) {
                    columns.computeIfAbsent(add.group(1), t -> new ArrayList<>()).add(add.group(2));
                }
            }
        }
        assertTrue(columns.size() >= 10, "the DDL files were read: " + columns.keySet());
        String doc = Files.readString(Path.of("..", "docs", "clickhouse-schema.md"));
        List<String> missing = new ArrayList<>();
        columns.forEach((table, cols) -> {
            int at = doc.indexOf("### `" + table + "`");
            if (at < 0) {
                missing.add(table + " (no section)");
                return;
            }
            int end = doc.indexOf("\n### ", at + 1);
            String section = doc.substring(at, end < 0 ? doc.length() : end);
            for (String col : cols) {
                Matcher row = Pattern.compile("^\\| `" + col + "`\\s*\\|[^|]*\\|\\s*(.*?)\\s*\\|\\s*$", Pattern.MULTILINE).matcher(section);
                if (!row.find() || row.group(1).isEmpty()) {
                    missing.add(table + "." + col);
                }
            }
        });
        assertTrue(missing.isEmpty(), "undocumented in docs/clickhouse-schema.md: " + missing);
    }
}
