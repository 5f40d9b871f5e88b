package dev.attribution.command.requests;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which pending writes one apply transaction of {@link WriteWorker} takes (issue 23 point 1: no account's writes wait
 * for another's).
 *
 * <p>Every write carries an <em>ordering key</em> ({@code write_requests.lane}, {@link WriteRequestLog#orderingKey}: a
 * 32-bit hash of its account and lead key). Writes of one key are applied in accept order, one transaction at a time;
 * writes of different keys are independent. A transaction takes the oldest pending writes, oldest first, of keys it
 * can lock with {@code pg_try_advisory_xact_lock(0x5752, key)} (free again at commit, or when a crashed node's session
 * ends, so the threads of every node over one database share all keys), after locking re-reads the locked keys'
 * oldest pending writes (a global prefix in accept order, hence each key's own oldest, in order), and applies them.
 * A key held by another transaction is passed over, with its later writes, and the scan goes on past it.
 *
 * <p>Bounded steps: a transaction takes at most {@code attribution.worker.batch-size} writes and, past its first,
 * at most {@code attribution.worker.batch-bytes} of stored payload ({@code pg_column_size}). A larger write (a big
 * order) is applied alone, in a transaction of its own, and only while it holds one of {@link #bigSlots} slot locks
 * ({@code pg_try_advisory_xact_lock(0x5753, slot)}, shared by the nodes): so a big write never delays the small
 * writes of another key that would otherwise share its transaction, and big writes never take every worker thread.
 *
 * <p>Upgrade: rows accepted before ordering keys carry one of 16 lanes (0..15, a value no ordering key takes). While
 * any of them is pending, only they are applied (by lane, in order), so a lead's writes accepted before and after the
 * upgrade keep their order.
 */
final class WriteClaims {

    static final int KEY_LOCKS = 0x5752; // "WR"
    static final int SLOT_LOCKS = 0x5753;
    /** How many times a transaction scans past keys it found held before it gives up for now. */
    private static final int ROUNDS = 4;

    /** A pending write to apply, with its ordering key. */
    record Pending(long seq, int key, String id, String accountId, String eventType, String payload, Timestamp createdAt) {
    }

    private record Row(long seq, int key, long size, Pending write) {
    }

    private final int batchSize;
    private final long batchBytes;
    private final int bigSlots;
    private volatile boolean legacyDone;

    WriteClaims(int batchSize, long batchBytes, int bigSlots) {
        this.batchSize = batchSize;
        this.batchBytes = batchBytes;
        this.bigSlots = bigSlots;
    }

    /** The writes this transaction applies, in order, their keys locked until it ends; empty: none free now. */
    List<Pending> claim(Connection c) throws SQLException {
        boolean legacy = !legacyDone && legacyPending(c);
        legacyDone = !legacy;
        Set<Integer> passed = new HashSet<>();
        boolean[] slot = {false};
        for (int round = 0; round < ROUNDS; round++) {
            List<Row> candidates = scan(c, legacy, passed);
            if (candidates.isEmpty()) {
                return List.of();
            }
            Set<Integer> wanted = new LinkedHashSet<>();
            take(c, candidates, slot, passed).forEach(r -> wanted.add(r.key()));
            if (wanted.isEmpty()) {
                continue;
            }
            List<Integer> locked = lock(c, wanted);
            wanted.removeAll(locked);
            passed.addAll(wanted);
            if (!locked.isEmpty()) {
                List<Row> batch = take(c, read(c, locked), slot, passed);
                if (!batch.isEmpty()) {
                    return batch.stream().map(Row::write).toList();
                }
                passed.addAll(locked);
            }
        }
        return List.of();
    }

    /**
     * The longest prefix of {@code rows} (in accept order) one transaction may apply: at most batch-size writes and
     * batch-bytes past the first; a write above batch-bytes only alone and with a slot, else its key is passed over.
     */
    private List<Row> take(Connection c, List<Row> rows, boolean[] slot, Set<Integer> passed) throws SQLException {
        List<Row> taken = new ArrayList<>();
        long bytes = 0;
        for (Row r : rows) {
            if (passed.contains(r.key())) {
                continue;
            }
            if (taken.size() >= batchSize) {
                break;
            }
            if (r.size() > batchBytes) {
                if (!taken.isEmpty()) {
                    break;
                }
                if (slot[0] || (slot[0] = takeSlot(c))) {
                    taken.add(r);
                    break;
                }
                passed.add(r.key());
                continue;
            }
            if (!taken.isEmpty() && bytes + r.size() > batchBytes) {
                break;
            }
            taken.add(r);
            bytes += r.size();
        }
        return taken;
    }

    private static boolean legacyPending(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM write_requests WHERE status = 'PENDING' AND lane BETWEEN 0 AND ?)""")) {
            ps.setInt(1, WriteRequestLog.LEGACY_LANES - 1);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The oldest pending writes (twice a batch) of keys not passed over, through the partial index on seq. */
    private List<Row> scan(Connection c, boolean legacy, Set<Integer> passed) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT seq, lane, pg_column_size(payload) FROM write_requests
                WHERE status = 'PENDING' AND lane <> ALL(?) AND (NOT ? OR lane BETWEEN 0 AND ?) ORDER BY seq LIMIT ?""")) {
            ps.setArray(1, c.createArrayOf("integer", passed.toArray()));
            ps.setBoolean(2, legacy);
            ps.setInt(3, WriteRequestLog.LEGACY_LANES - 1);
            ps.setInt(4, batchSize * 2);
            return rows(ps, rs -> new Row(rs.getLong(1), rs.getInt(2), rs.getLong(3), null));
        }
    }

    /** After the locks: the oldest pending writes of the locked keys, read afresh (another transaction may have applied some). */
    private List<Row> read(Connection c, List<Integer> keys) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT seq, lane, pg_column_size(payload), id, account_id, event_type, payload::text, created_at
                FROM write_requests WHERE status = 'PENDING' AND lane = ANY(?) ORDER BY seq LIMIT ?""")) {
            ps.setArray(1, c.createArrayOf("integer", keys.toArray()));
            ps.setInt(2, batchSize);
            return rows(ps, rs -> new Row(rs.getLong(1), rs.getInt(2), rs.getLong(3),
                    new Pending(rs.getLong(1), rs.getInt(2), rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getTimestamp(8))));
        }
    }

    private interface RowReader {
        Row read(ResultSet rs) throws SQLException;
    }

    private static List<Row> rows(PreparedStatement ps, RowReader reader) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(reader.read(rs));
            }
        }
        return rows;
    }

    /** The keys of {@code wanted} this transaction could lock (one round trip; a held key is not waited for). */
    private static List<Integer> lock(Connection c, Set<Integer> wanted) throws SQLException {
        List<Integer> locked = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT k FROM unnest(?::integer[]) AS u(k) WHERE pg_try_advisory_xact_lock(?, k)")) {
            ps.setArray(1, c.createArrayOf("integer", wanted.toArray()));
            ps.setInt(2, KEY_LOCKS);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    locked.add(rs.getInt(1));
                }
            }
        }
        return locked;
    }

    /** One of the slots for a big write, if one is free (at most {@link #bigSlots} big writes apply at once). */
    private boolean takeSlot(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT s FROM generate_series(0, ?) AS s WHERE pg_try_advisory_xact_lock(?, s) LIMIT 1")) {
            ps.setInt(1, bigSlots - 1);
            ps.setInt(2, SLOT_LOCKS);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Slots for big writes: half the worker threads of a node, at least one. */
    static int bigSlots(int threads) {
        return Math.max(1, threads / 2);
    }
}
