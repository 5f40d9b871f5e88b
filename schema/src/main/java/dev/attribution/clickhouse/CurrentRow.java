package dev.attribution.clickhouse;

/**
 * The current-row rule of every table the CDC sink feeds (ReplacingMergeTree(_version), one row per change): a key's
 * current row is its version of the highest {@code _version}, and the key is gone when that version is a delete
 * ({@code is_deleted = 1}). The {@code *_current} views of the DDL ({@code clickhouse/views/}) state the same rule; the per-table owners of the
 * query side ({@code query/attribution/clickhouse}) and the CDC bridge's consistency check, resync and erasure restate
 * it for the rows they need (the key range cut before the dedup) through this class only. {@code CurrentRowsTest}
 * checks each report owner against its view, {@code CurrentRowViewsTest} the bridge's builder against every view.
 */
public final class CurrentRow {

    private CurrentRow() {
    }

    /** The current value of {@code column}. */
    public static String latest(String column) {
        return "argMax(" + column + ", _version)";
    }

    /** {@code latest(column) AS alias}; never alias with the raw column's name (18.16 then reads the aggregate in WHERE). */
    public static String latest(String column, String alias) {
        return latest(column) + " AS " + alias;
    }

    /** The HAVING condition keeping live keys. */
    public static String live() {
        return latest("is_deleted") + " = 0";
    }
}
