package dev.attribution.clickhouse;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ClickHouse DDL layout: each table and view has exactly one file holding its current definition
 * ({@code clickhouse/tables/<name>.sql}, {@code clickhouse/views/<name>.sql}), the numbered files create nothing
 * themselves but refer to those files ({@code @table}, {@code @view}, {@code @column}), every definition file is
 * referred to, and INDEX lists every numbered file.
 */
class DdlLayoutTest {

    private static final Path DDL = Path.of("src/main/resources/clickhouse");
    private static final Pattern CREATE = Pattern.compile("(?im)^\\s*CREATE\\s+(TABLE|VIEW|MATERIALIZED\\s+VIEW)\\b");
    private static final Pattern DIRECTIVE = Pattern.compile("(?m)^@(table|view|column)\\s+(\\w+)");

    @Test
    void numberedFilesReferToTheOneFileOfEachTableAndView() throws IOException {
        Set<String> tables = names(DDL.resolve("tables"));
        Set<String> views = names(DDL.resolve("views"));
        assertTrue(tables.contains("leads") && views.contains("leads_current"), tables + " " + views);
        Set<String> referredTables = new TreeSet<>();
        Set<String> referredViews = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        for (Path numbered : numbered()) {
            String text = Files.readString(numbered);
            if (CREATE.matcher(text).find()) {
                problems.add(numbered.getFileName() + " creates an object itself: put its definition in tables/ or views/ and refer to it");
            }
            Matcher d = DIRECTIVE.matcher(text);
            while (d.find()) {
                (d.group(1).equals("view") ? referredViews : referredTables).add(d.group(2));
            }
        }
        for (String t : tables) {
            if (!referredTables.contains(t)) {
                problems.add("tables/" + t + ".sql is not created by any numbered file (@table " + t + ")");
            }
        }
        for (String v : views) {
            if (!referredViews.contains(v)) {
                problems.add("views/" + v + ".sql is not created by any numbered file (@view " + v + ")");
            }
        }
        assertEquals(List.of(), problems);
        // every directive resolves to its file's one statement
        assertTrue(ClickHouseSchema.files().size() >= 22);
    }

    @Test
    void indexListsEveryNumberedFileInOrder() throws IOException {
        List<String> index = Files.readAllLines(DDL.resolve("INDEX")).stream().map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        List<String> files = numbered().stream().map(p -> p.getFileName().toString()).toList();
        assertEquals(files, index);
    }

    @Test
    void aDirectiveStandsForTheDefinitionOfItsFile() {
        DdlDefinitions d = new DdlDefinitions(ClickHouseSchema.ROOT);
        assertEquals(List.of("ALTER TABLE {db}.leads ADD COLUMN erased      UInt8 DEFAULT 0"), d.expand("@column leads.erased"));
        List<String> view = d.expand("@view leads_current");
        assertEquals("DROP TABLE IF EXISTS {db}.leads_current", view.get(0));
        assertTrue(view.get(1).startsWith("CREATE VIEW IF NOT EXISTS {db}.leads_current AS"), view.get(1));
        // a feed is never dropped to redefine it
        List<String> feed = d.expand("@view clicks_by_ad_feed");
        assertEquals(1, feed.size());
        assertTrue(feed.get(0).startsWith("CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.clicks_by_ad_feed TO"), feed.get(0));
        assertTrue(d.expand("@table ads").get(0).contains("source_level   UInt8 DEFAULT 0"));
        // a derivation over every account: the file's statements, {scope} true
        List<String> derive = d.expand("@derive sale_credits");
        assertEquals(1, derive.size());
        assertTrue(derive.get(0).startsWith("INSERT INTO {db}.sale_credits (") && derive.get(0).contains("FROM {db}.sales WHERE 1 GROUP BY")
                && !derive.get(0).contains("{scope}"), derive.get(0));
    }

    private static Set<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".sql"))
                    .map(n -> n.substring(0, n.length() - 4)).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    private static List<Path> numbered() throws IOException {
        try (Stream<Path> files = Files.list(DDL)) {
            return files.filter(p -> p.getFileName().toString().matches("\\d{3}_\\w+\\.sql")).sorted().toList();
        }
    }
}
