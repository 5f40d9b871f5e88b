package dev.attribution.cdc;

import java.util.Map;

/**
 * One row change as the sink sees it: the table, the row's columns (after-image, or before-image for a delete),
 * a version that only grows (the change's WAL position) and whether the row is gone.
 */
public record Change(String table, Map<String, Object> row, long version, boolean deleted, long sourceMillis) {

    /**
     * The change a Debezium envelope describes, or null when it holds no row image. Both ways in use it: the embedded
     * bridge (a Connect {@code Struct}) and Debezium Server's HTTP sink (the same envelope as JSON, docs/scaling.md
     * "CDC outside the process"), so versions and deletes are decided by this one rule.
     *
     * <p>Version: a streamed change carries its own WAL position, which only grows for one key (a row's next change
     * waits for the previous one's commit, by row lock or unique index). Snapshot reads ({@code op = r}) get 0: a
     * snapshot row is older than every change streamed after it, including changes written before the snapshot's
     * LSN by transactions that committed after it (their LSN can be below the snapshot's).
     *
     * @param op     Debezium's {@code op}: c, u, d or r
     * @param before the before-image (used for a delete), may be null
     * @param after  the after-image, may be null
     * @param lsn    {@code source.lsn}, may be null
     */
    public static Change of(String table, String op, Map<String, Object> before, Map<String, Object> after, Long lsn,
                            Long sourceMillis) {
        boolean deleted = "d".equals(op);
        Map<String, Object> image = deleted ? before : after;
        if (image == null || op == null) {
            return null;
        }
        long version = "r".equals(op) || lsn == null ? 0 : lsn;
        return new Change(table, image, version, deleted, sourceMillis == null ? 0 : sourceMillis);
    }

    /** A snapshot read (version 0): what a resync brings; none is expected after a switch between engines. */
    public boolean snapshot() {
        return version == 0;
    }
}
