package dev.attribution.server.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One owner class per written PostgreSQL table (issue 25 point 2, README "Write paths"): the SQL string literals of
 * every module's main sources ({@code *}{@code /src/main/java} and {@code *}{@code /*}{@code /src/main/java}) are
 * scanned for {@code INSERT INTO}, {@code UPDATE … SET}, {@code DELETE FROM} and {@code COPY … FROM} of each table the
 * Flyway migrations create, and a table written from two classes fails here. A table name built at run time
 * ({@code "INSERT INTO " + table}) is not seen; Flyway migrations are SQL, not Java, and are not scanned.
 */
class TableWritersTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern CREATE_TABLE = Pattern.compile(
            "(?i)\\bCREATE\\s+(?:UNLOGGED\\s+)?TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(\\w+)");
    private static final Pattern WRITE = Pattern.compile("(?i)\\bINSERT\\s+INTO\\s+(\\w+)|(?<!\\bDO\\s)\\bUPDATE\\s+(\\w+)"
            + "(?:\\s+(?:AS\\s+)?\\w+)?\\s+SET\\b|\\bDELETE\\s+FROM\\s+(\\w+)|\\bCOPY\\s+(\\w+)(?:\\s*\\([^)]*\\))?\\s+FROM\\b");

    /** Tables written from more than one class, each with its reason. */
    private static final Map<String, String> DELIBERATE = Map.of();

    @Test
    void eachTableHasOneWriterClass() {
        Set<String> tables = postgresTables();
        assertTrue(tables.contains("leads") && tables.contains("sales"), "no tables found in the Flyway migrations");
        Map<String, Set<String>> writers = writers(tables);
        assertTrue(writers.containsKey("leads"), "the scan found no writer of leads: " + writers);
        Map<String, Set<String>> shared = new TreeMap<>();
        writers.forEach((table, classes) -> {
            if (classes.size() > 1 && !DELIBERATE.containsKey(table)) {
                shared.put(table, classes);
            }
        });
        assertEquals(Map.of(), shared, "tables written from more than one class");
    }

    /** Every table the Flyway migrations create. */
    private static Set<String> postgresTables() {
        Path migrations = ROOT.resolve("schema/src/main/resources/db/migration");
        Set<String> tables = new TreeSet<>();
        for (Path f : list(migrations, ".sql")) {
            Matcher m = CREATE_TABLE.matcher(read(f));
            while (m.find()) {
                tables.add(m.group(1).toLowerCase());
            }
        }
        return tables;
    }

    /** For each table, the main source files (relative to the root) whose SQL literals write it. */
    private static Map<String, Set<String>> writers(Set<String> tables) {
        Map<String, Set<String>> writers = new TreeMap<>();
        try (Stream<Path> dirs = Files.walk(ROOT, 5)) {
            List<Path> sourceRoots = dirs.filter(d -> d.endsWith(Path.of("src", "main", "java")))
                    .filter(d -> !d.toString().contains("/target/") && !d.toString().contains("/.data/")).toList();
            assertTrue(sourceRoots.size() >= 5, "source roots found: " + sourceRoots);
            for (Path sources : sourceRoots) {
                for (Path f : list(sources, ".java")) {
                    Matcher m = WRITE.matcher(String.join(" ", literals(read(f))));
                    while (m.find()) {
                        String table = Stream.of(m.group(1), m.group(2), m.group(3), m.group(4))
                                .filter(t -> t != null).findFirst().orElseThrow().toLowerCase();
                        if (tables.contains(table)) {
                            writers.computeIfAbsent(table, t -> new TreeSet<>()).add(ROOT.relativize(f).toString());
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return writers;
    }

    /** The contents of the string literals and text blocks of a Java source, comments and char literals skipped. */
    static List<String> literals(String src) {
        List<String> out = new java.util.ArrayList<>();
        int i = 0;
        int n = src.length();
        while (i < n) {
            char ch = src.charAt(i);
            if (src.startsWith("//", i)) {
                int end = src.indexOf('\n', i);
                i = end < 0 ? n : end + 1;
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                while (end > 0 && src.charAt(end - 1) == '\\') {
                    end = src.indexOf("\"\"\"", end + 1);
                }
                end = end < 0 ? n : end;
                out.add(src.substring(i + 3, end));
                i = end + 3;
            } else if (ch == '"' || ch == '\'') {
                StringBuilder s = new StringBuilder();
                int j = i + 1;
                while (j < n && src.charAt(j) != ch && src.charAt(j) != '\n') {
                    if (src.charAt(j) == '\\' && j + 1 < n) {
                        j++;
                    }
                    s.append(src.charAt(j));
                    j++;
                }
                if (ch == '"') {
                    out.add(s.toString());
                }
                i = j + 1;
            } else {
                i++;
            }
        }
        return out;
    }

    private static List<Path> list(Path dir, String suffix) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.toString().endsWith(suffix)).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
