package dev.attribution.server.cdc;

import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.testing.TestStack;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Helpers of the CDC tests: SQL straight into PostgreSQL, ClickHouse counts, waiting for a clean check. */
public final class CdcTesting {

    private CdcTesting() {
    }

    /** Runs statements in one PostgreSQL transaction. */
    static void sql(String... statements) {
        try (Connection c = TestStack.get().connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement);
                }
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    static long pgLong(String query) {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement(); var rs = s.executeQuery(query)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A single number from ClickHouse (the test's own database is {@code {db}}). */
    static long chLong(String query) {
        String db = TestStack.get().clickhouseDatabase();
        return Long.parseLong(TestStack.get().clickhouse(query.replace("{db}", db) + " FORMAT TabSeparated").trim());
    }

    static String ch(String query) {
        String db = TestStack.get().clickhouseDatabase();
        return TestStack.get().clickhouse(query.replace("{db}", db) + " FORMAT TabSeparated").trim();
    }

    /** Waits until the check finds no difference; fails with the last differences after {@code timeout}. */
    static void awaitClean(CdcCheck check, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        List<CdcCheck.Difference> last = List.of();
        while (Instant.now().isBefore(deadline)) {
            last = check.run(null, null);
            if (last.isEmpty()) {
                return;
            }
            sleep(200);
        }
        throw new AssertionError("ClickHouse still differs from PostgreSQL after " + timeout.toSeconds() + " s: "
                + last.stream().map(CdcCheck.Difference::describe).toList());
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted");
        }
    }

    /**
     * Drops a test's own replication slot (its bridge stopped: the walsender is ended if still attached) and its
     * publication; the slot must be inactive before PostgreSQL lets it go.
     */
    public static void dropSlotAndPublication(String name) throws SQLException, InterruptedException {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = '" + name + "' AND active_pid IS NOT NULL");
            for (int i = 0; i < 50; i++) {
                try (var rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + name + "' AND active")) {
                    rs.next();
                    if (rs.getLong(1) == 0) {
                        break;
                    }
                }
                Thread.sleep(100);
            }
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + name + "'");
            s.execute("DROP PUBLICATION IF EXISTS " + name);
        }
    }
}
