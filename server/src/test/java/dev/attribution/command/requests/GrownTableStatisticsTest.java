package dev.attribution.command.requests;

import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link GrownTableStatistics} analyzes a table that grew since its statistics (here from none to 2,000 rows) and
 * leaves one that changed by fewer than {@link GrownTableStatistics#MIN_CHANGES} rows; both tables have autovacuum off,
 * so only the call under test can take their statistics.
 */
@MicronautTest(transactional = false)
class GrownTableStatisticsTest extends ApiTest {

    @Inject
    GrownTableStatistics statistics;

    @Test
    void aTableThatGrewIsAnalyzedAndASmallChangeIsNot() throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.execute("DROP TABLE IF EXISTS grown_probe, grown_probe_small");
            s.execute("CREATE TABLE grown_probe (id int PRIMARY KEY) WITH (autovacuum_enabled = false)");
            s.execute("CREATE TABLE grown_probe_small (id int PRIMARY KEY) WITH (autovacuum_enabled = false)");
            try {
                s.execute("INSERT INTO grown_probe SELECT generate_series(1, 2000)");
                s.execute("INSERT INTO grown_probe_small SELECT generate_series(1, 100)");
                s.execute("SELECT pg_stat_force_next_flush()");
                // the counters reach pg_stat_user_tables when this session goes idle: wait for them (bounded)
                Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
                while (changes(s, "grown_probe") < 2000 || changes(s, "grown_probe_small") < 100) {
                    assertTrue(Instant.now().isBefore(deadline), "table statistics counters not flushed in 60 s");
                    s.execute("SELECT pg_stat_force_next_flush()");
                    Thread.sleep(100);
                }
                assertEquals(-1, reltuples(s, "grown_probe"), "never analyzed before the call");

                List<String> analyzed = statistics.analyzeGrown();

                assertTrue(analyzed.contains("public.grown_probe"), analyzed.toString());
                assertFalse(analyzed.contains("public.grown_probe_small"), analyzed.toString());
                assertEquals(2000, reltuples(s, "grown_probe"), "ANALYZE counted the rows");
                assertEquals(-1, reltuples(s, "grown_probe_small"), "100 changed rows: left as it was");
            } finally {
                s.execute("DROP TABLE IF EXISTS grown_probe, grown_probe_small");
            }
        }
    }

    private static long changes(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT coalesce(max(n_mod_since_analyze), 0) FROM pg_stat_user_tables WHERE relname = '" + table + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long reltuples(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT reltuples::bigint FROM pg_class WHERE relname = '" + table + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
