package dev.attribution.cdc.resync;

import dev.attribution.clickhouse.CurrentRow;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One streamed table as both stores hold it: the columns the bridge copies (ClickHouse columns that PostgreSQL also
 * has, without {@code _version} and {@code is_deleted}), the dedup key (the GROUP BY of the table's {@code _current}
 * view, else the ClickHouse sorting key) and the column
 * that picks the month partition ({@code PARTITION BY toYYYYMM(column)}), null for an unpartitioned table.
 *
 * <p>It renders the SQL that check and resync run on each side: the same value text on both sides, so that one
 * row hashes alike in PostgreSQL ({@code md5}) and ClickHouse ({@code halfMD5}: the first 8 bytes of the MD5).
 */
public record CdcTable(String name, List<Column> columns, List<String> key, String monthColumn) {

    /** A copied column: its ClickHouse type and its PostgreSQL {@code data_type}. */
    public record Column(String name, String clickhouseType, String postgresType) {

        boolean nullable() {
            return clickhouseType.startsWith("Nullable(");
        }

        String base() {
            String t = nullable() ? clickhouseType.substring(9, clickhouseType.length() - 1) : clickhouseType;
            return t.startsWith("LowCardinality(") ? t.substring(15, t.length() - 1) : t;
        }
    }

    /** Month buckets of an unpartitioned table: everything is month 0. */
    public static final int NO_MONTH = 0;

    public boolean partitioned() {
        return monthColumn != null;
    }

    // ------------------------------------------------------------------------------------------------ PostgreSQL

    /** The row's month as YYYYMM in UTC (the partition ClickHouse puts it in), or 0 when unpartitioned. */
    String pgMonth() {
        if (!partitioned()) {
            return "0";
        }
        String pgType = columns.stream().filter(c -> c.name().equals(monthColumn)).map(Column::postgresType)
                .findFirst().orElse("timestamp with time zone");
        // timestamptz: its UTC wall clock; timestamp (no zone) and date: as stored (the sink reads them as UTC)
        String utc = pgType.startsWith("timestamp with") ? "(" + q(monthColumn) + " AT TIME ZONE 'UTC')" : q(monthColumn);
        return "coalesce((extract(year from " + utc + ") * 100 + extract(month from " + utc + "))::int, 197001)";
    }

    /** 64 bits of the MD5 of the row's value text, as a signed bigint. */
    String pgHash() {
        String text = columns.stream().map(CdcTable::pgText).collect(Collectors.joining(", "));
        return "('x' || substr(md5(concat_ws(chr(31), " + text + ")), 1, 16))::bit(64)::bigint";
    }

    /** The key of a row as text, {@code account_id=…, id=…}: the same text on both sides. */
    String pgKeyText() {
        return "concat_ws(', ', " + key.stream().map(k -> lit(k + "=") + " || " + pgText(column(k))).collect(Collectors.joining(", ")) + ")";
    }

    /** One PostgreSQL row per key of {@code month}: key text {@code k}, hash {@code h}, the row as JSON {@code j}. */
    String pgKeyedRows(int month) {
        return "SELECT k, h, j FROM (SELECT " + pgMonth() + " AS m, " + pgKeyText() + " AS k, " + pgHash() + " AS h, "
                + pgJson(0) + "::text AS j FROM public." + q(name) + ") x WHERE m = " + month;
    }

    private Column column(String name) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException(this.name + ": key column " + name + " is not copied from PostgreSQL"));
    }

    /** The row as one JSONEachRow object with values shaped as the sink shapes them. */
    String pgJson(long version) {
        StringBuilder b = new StringBuilder("json_build_object(");
        for (Column c : columns) {
            b.append(lit(c.name())).append(", ").append(pgJsonValue(c)).append(", ");
        }
        return b.append("'_version', ").append(version).append(", 'is_deleted', 0)").toString();
    }

    private static String pgText(Column c) {
        String col = q(c.name());
        String base = c.base();
        String expr;
        String fallback = "''";
        if (base.startsWith("DateTime")) {
            expr = "floor(extract(epoch from " + col + "))::bigint::text";
            fallback = "'0'";
        } else if (base.equals("Date")) {
            // days since 1970-01-01: 18.16 prints day 0 as 0000-00-00, current releases as 1970-01-01
            String day = c.postgresType().startsWith("timestamp with") ? "(" + col + " AT TIME ZONE 'UTC')::date" : col + "::date";
            expr = "(" + day + " - date '1970-01-01')::text";
            fallback = "'0'";
        } else if (base.startsWith("Decimal")) {
            int scale = scale(base);
            expr = "(round(" + col + ", " + scale + ") * 1" + "0".repeat(scale) + ")::bigint::text";
            fallback = "'0'";
        } else if (base.startsWith("Float")) {
            expr = "round((" + col + " * 10000)::numeric)::bigint::text";
            fallback = "'0'";
        } else if (base.startsWith("Int") || base.startsWith("UInt")) {
            expr = c.postgresType().equals("boolean") ? "(" + col + ")::int::text" : col + "::text";
            fallback = "'0'";
        } else if (base.startsWith("Array(")) {
            expr = "array_to_string(" + col + ", chr(30))";
        } else {
            expr = col + "::text";
        }
        return "coalesce(" + expr + ", " + (c.nullable() ? "'\\N'" : fallback) + ")";
    }

    private static String pgJsonValue(Column c) {
        String col = q(c.name());
        String base = c.base();
        String expr;
        String fallback = "''";
        if (base.startsWith("DateTime")) {
            expr = "floor(extract(epoch from " + col + "))::bigint";
            fallback = "0";
        } else if (base.equals("Date")) {
            expr = c.postgresType().startsWith("timestamp with")
                    ? "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM-DD')" : "to_char(" + col + ", 'YYYY-MM-DD')";
            fallback = "'1970-01-01'";
        } else if (base.startsWith("Decimal")) {
            expr = "round(" + col + ", " + scale(base) + ")";
            fallback = "0";
        } else if (base.startsWith("Int") || base.startsWith("UInt") || base.startsWith("Float")) {
            expr = c.postgresType().equals("boolean") ? "(" + col + ")::int" : col;
            fallback = "0";
        } else if (base.startsWith("Array(")) {
            expr = "to_json(" + col + ")";
            fallback = "'[]'::json";
        } else {
            expr = col + "::text";
        }
        return c.nullable() ? expr : "coalesce(" + expr + ", " + fallback + ")";
    }

    // ------------------------------------------------------------------------------------------------ ClickHouse

    /** The month of a raw table row (the partition expression), 0 when unpartitioned. */
    String chMonthOfTable() {
        if (!partitioned()) {
            return "0";
        }
        boolean nullable = columns.stream().anyMatch(c -> c.name().equals(monthColumn) && c.nullable());
        return nullable ? "ifNull(toYYYYMM(" + monthColumn + "), 197001)" : "toYYYYMM(" + monthColumn + ")";
    }

    /** Same 64 bits as {@link #pgHash()}, unsigned, of one raw table row. */
    String chHash() {
        String text = columns.stream().map(CdcTable::chText).collect(Collectors.joining(", '\\x1f', "));
        return "halfMD5(concat(" + text + (columns.size() == 1 ? ", ''" : "") + "))";
    }

    /**
     * The table's live rows as check buckets: one row per key with its month {@code m} and content hash {@code h},
     * both of the newest version, keys whose newest version is a delete left out. Read from the versioned table
     * itself, not the {@code _current} view: views rename, drop and filter columns (e.g. soft-deleted rows) as their
     * readers need, while the table holds every copied column under its PostgreSQL name.
     */
    String chLiveRows(String database) {
        return "SELECT " + CurrentRow.latest(chMonthOfTable(), "m") + ", " + CurrentRow.latest(chHash(), "h") + " FROM "
                + database + "." + name + " GROUP BY " + String.join(", ", key) + " HAVING " + CurrentRow.live();
    }

    /** One live ClickHouse row per key of {@code month}: key text {@code k} (as {@link #pgKeyText()}) and hash {@code h}. */
    String chKeyedRows(String database, int month) {
        String k = "concat(" + key.stream().map(c -> "'" + c + "=', " + chText(column(c))).collect(Collectors.joining(", ', ', "))
                + (key.size() == 1 ? ", ''" : "") + ")";
        return "SELECT k, h FROM (SELECT " + k + " AS k, " + CurrentRow.latest(chMonthOfTable(), "m") + ", "
                + CurrentRow.latest(chHash(), "h") + " FROM " + database + "." + name + " GROUP BY " + String.join(", ", key)
                + " HAVING " + CurrentRow.live() + ") AS live WHERE m = " + month;
    }

    private static String chText(Column c) {
        String col = c.name();
        String base = c.base();
        String expr;
        if (base.startsWith("DateTime")) {
            expr = "toString(toUInt32(" + col + "))";
        } else if (base.equals("Date")) {
            expr = "toString(toUInt16(" + col + "))";
        } else if (base.startsWith("Decimal")) {
            expr = "toString(toInt64(" + col + " * 1" + "0".repeat(scale(base)) + "))";
        } else if (base.startsWith("Float")) {
            expr = "toString(toInt64(round(" + col + " * 10000)))";
        } else if (base.startsWith("Array(")) {
            expr = "arrayStringConcat(arrayMap(x -> toString(x), " + col + "), '\\x1e')";
        } else {
            expr = "toString(" + col + ")";
        }
        return c.nullable() ? "ifNull(" + expr + ", '\\\\N')" : expr;
    }

    private static int scale(String decimalType) {
        String args = decimalType.substring(decimalType.indexOf('(') + 1, decimalType.length() - 1);
        String[] parts = args.split(",");
        return Integer.parseInt(parts[parts.length - 1].trim());
    }

    static String q(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String lit(String text) {
        return "'" + text.replace("'", "''") + "'";
    }
}
