package dev.attribution.query.attribution.clickhouse;

/**
 * The current-row rule of every table the CDC sink feeds (ReplacingMergeTree(_version), one row per change): a key's
 * current row is its version of the highest {@code _version}, and the key is gone when that version is a delete
 * ({@code is_deleted = 1}). The {@code *_current} views of the DDL state the same rule; the per-table owners of this
 * package restate it for the rows a report needs (the key range cut before the dedup) through this class only, and
 * {@code CurrentRowsTest} checks each owner against its view.
 */
final class Versions {

    private Versions() {
    }

    /** The current value of {@code column}. */
    static String latest(String column) {
        return "argMax(" + column + ", _version)";
    }

    /** {@code latest(column) AS alias}; never alias with the raw column's name (18.16 then reads the aggregate in WHERE). */
    static String latest(String column, String alias) {
        return latest(column) + " AS " + alias;
    }

    /** The HAVING condition keeping live keys. */
    static String live() {
        return latest("is_deleted") + " = 0";
    }
}
