package dev.attribution.server.architecture;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module graph draws the data flow (issue 25, README "Modules"): command-side, cdc-bridge and the two query
 * modules stand side by side on schema and never reach into each other. Checked on the sources and the poms, so a
 * class moved to the wrong module fails here, not in a split deployment.
 */
class ModuleBoundariesTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String ANALYTICS_PACKAGES = "dev\\.attribution\\.query\\.(attribution|paths|reports|aggregation)\\b";

    @Test
    void commandSideReadsNothingOfTheQuerySide() {
        assertEquals(List.of(), importing("command-side", "dev\\.attribution\\.query\\."));
        assertFalse(pom("command-side").contains("<artifactId>query-"), "command-side/pom.xml depends on a query module");
    }

    @Test
    void cdcBridgeHasNoHttpServerAndNoQuerySide() {
        // its one route (POST /cdc/ingest, the Debezium Server sink) is declared with micronaut-http's annotations only
        assertEquals(List.of(), importing("cdc-bridge", "(dev\\.attribution\\.query\\.|io\\.micronaut\\.http\\.server\\.|io\\.netty\\.)"));
        assertFalse(pom("cdc-bridge").contains("micronaut-http-server"), "cdc-bridge/pom.xml pulls the HTTP server");
    }

    @Test
    void recordReadsAndAnalyticsAreSideBySide() {
        assertEquals(List.of(), importing("query-side/records", ANALYTICS_PACKAGES));
        assertEquals(List.of(), importing("query-side/analytics",
                "dev\\.attribution\\.query\\.(?!attribution|paths|reports|aggregation)\\w+\\."));
        assertFalse(pom("query-side/records").contains("<artifactId>query-analytics"), "records depends on analytics");
        assertFalse(pom("query-side/analytics").contains("<artifactId>query-records"), "analytics depends on records");
    }

    @Test
    void recordReadsDoNotTalkToClickHouse() {
        assertEquals(List.of(), importing("query-side/records", "dev\\.attribution\\.clickhouse\\."));
    }

    /** "file: import line" for each main source file of {@code module} importing a class matching {@code regex}. */
    private static List<String> importing(String module, String regex) {
        Pattern imports = Pattern.compile("^import (static )?" + regex);
        Path sources = ROOT.resolve(module).resolve("src/main/java");
        assertTrue(Files.isDirectory(sources), "no sources at " + sources);
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(f -> f.toString().endsWith(".java"))
                    .flatMap(f -> lines(f).stream().filter(l -> imports.matcher(l).find())
                            .map(l -> ROOT.relativize(f) + ": " + l))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String pom(String module) {
        try {
            return Files.readString(ROOT.resolve(module).resolve("pom.xml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
