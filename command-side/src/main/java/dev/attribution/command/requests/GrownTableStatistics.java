package dev.attribution.command.requests;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Fresh planner statistics for the tables that grew (issue 23 point 3). PostgreSQL keeps a prepared statement's
 * generic plan, the plan of a foreign-key check and those of the triggers' statements until the table's next ANALYZE;
 * autovacuum analyzes a table once per {@code autovacuum_naptime} (60 s by default) at most. On a new database the
 * first plans are costed on near-empty tables, and under a sustained write load they stayed for a minute: the click
 * render and the foreign-key checks of {@code leads} read the account's rows by {@code account_id} alone, each
 * statement of a batch took up to seconds, and the apply fell to a fifth of its rate until the first autovacuum
 * (docs/BENCHMARKS.md "Plans kept from empty tables in the first minute").
 * <p>
 * So every {@code attribution.statistics.interval} (default 10s) each node analyzes the tables of its schema that
 * changed by at least {@link #MIN_CHANGES} rows and by half their rows since their statistics were taken, up to
 * {@link #MAX_ROWS} rows: young tables, analyzed in milliseconds; larger ones are autovacuum's. {@code SKIP_LOCKED}:
 * a table autovacuum or another node is analyzing is left to it. The ANALYZE makes every session plan its statements
 * on that table again.
 */
@Singleton
public class GrownTableStatistics {

    private static final Logger LOG = LoggerFactory.getLogger(GrownTableStatistics.class);

    /** Fewer changed rows than this since the last statistics: never analyzed here. */
    static final long MIN_CHANGES = 500;
    /** Tables of more live rows than this are left to autovacuum. */
    static final long MAX_ROWS = 1_000_000;

    private static final String GROWN = """
            SELECT format('%I.%I', schemaname, relname) FROM pg_stat_user_tables
            WHERE schemaname = current_schema() AND n_live_tup <= ? AND n_mod_since_analyze >= ?
              AND n_mod_since_analyze * 2 >= n_live_tup
            ORDER BY n_mod_since_analyze DESC""";

    private final DataSource dataSource;

    public GrownTableStatistics(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Scheduled(fixedDelay = "${attribution.statistics.interval:10s}", initialDelay = "${attribution.statistics.interval:10s}")
    void scheduled() {
        try {
            List<String> analyzed = analyzeGrown();
            if (!analyzed.isEmpty()) {
                LOG.debug("statistics taken again: {}", analyzed);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("statistics of grown tables not taken, next try in one interval: {}", e.getMessage());
        }
    }

    /** Analyzes the grown tables now; returns their names. */
    public List<String> analyzeGrown() throws SQLException {
        List<String> grown = new ArrayList<>();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(true);
            try (PreparedStatement ps = c.prepareStatement(GROWN)) {
                ps.setLong(1, MAX_ROWS);
                ps.setLong(2, MIN_CHANGES);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        grown.add(rs.getString(1));
                    }
                }
            }
            try (Statement s = c.createStatement()) {
                for (String table : grown) {
                    s.execute("ANALYZE (SKIP_LOCKED) " + table);
                }
            }
        }
        return grown;
    }
}
