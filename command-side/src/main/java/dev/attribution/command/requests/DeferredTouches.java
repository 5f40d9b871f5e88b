package dev.attribution.command.requests;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * One refresh of {@code conversion_touches} per apply transaction instead of one per statement (issue 23 point 3;
 * V102): {@link #defer} makes the triggers on clicks, sales and calls queue the leads they touch, {@link #flush}
 * refreshes them all, and must run before the transaction commits. A rollback (of the transaction or of a write's
 * savepoint) takes the queued leads of what it undoes with it.
 */
final class DeferredTouches {

    private DeferredTouches() {
    }

    /** From now to the end of this transaction, the triggers queue the leads they touch. */
    static void defer(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET LOCAL attribution.touches_deferred = on");
        }
    }

    /** Refreshes the queued leads' conversion touches, in one call; returns how many leads. */
    static int flush(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); var rs = s.executeQuery("SELECT conversion_touches_flush()")) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
