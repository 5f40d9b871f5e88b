package dev.attribution.command.requests;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * One window of a table walked by {@link LogRetention}: the next {@code limit} rows after {@code afterSeq} in sequence
 * order, the newest sequence number among them, the oldest creation time, and the sequence numbers of those the
 * table's owner found purgeable.
 */
public record RetentionWindow(int rows, long lastSeq, Instant oldest, Long[] purgeable) {

    /**
     * Reads a window: {@code sql} selects {@code seq, created_at, purgeable} of the next rows after its first parameter,
     * limited by its second, and takes the cutoff as its third.
     */
    public static RetentionWindow read(Connection c, String sql, long afterSeq, int limit, Instant cutoff) throws SQLException {
        int rows = 0;
        long last = afterSeq;
        Instant oldest = null;
        List<Long> purgeable = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, afterSeq);
            ps.setInt(2, limit);
            ps.setTimestamp(3, Timestamp.from(cutoff));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows++;
                    last = Math.max(last, rs.getLong(1));
                    Instant created = rs.getTimestamp(2).toInstant();
                    oldest = oldest == null || created.isBefore(oldest) ? created : oldest;
                    if (rs.getBoolean(3)) {
                        purgeable.add(rs.getLong(1));
                    }
                }
            }
        }
        return new RetentionWindow(rows, last, oldest, purgeable.toArray(Long[]::new));
    }

    /** Whether the walk goes on: this window was full and still held rows older than the cutoff. */
    public boolean walkOn(int limit, Instant cutoff) {
        return rows == limit && oldest != null && oldest.isBefore(cutoff);
    }
}
