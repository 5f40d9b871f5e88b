package dev.attribution.cdc.resync;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares PostgreSQL with ClickHouse's live rows (newest version of each key, not deleted), per table and month: row count and a content checksum (the
 * sum, modulo 2^64, of a 64-bit MD5 prefix of every row's value text; see {@link CdcTable}). Both sides aggregate in
 * their own engine, so a check reads no rows over the wire.
 */
@Singleton
@Requires(beans = ClickHouseGateway.class)
public class CdcCheck {

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** Rows listed per differing bucket at most; the rest are counted. */
    static final int ROWS_SHOWN = 20;

    /**
     * One bucket that differs. {@code month} is YYYYMM, or 0 for an unpartitioned table. {@code rows}: the differing
     * rows, one line each ({@code only in PostgreSQL: <key> <row>}, {@code only in ClickHouse: <key>},
     * {@code differs: <key> <PostgreSQL row>}), at most {@value #ROWS_SHOWN} then a count of the rest.
     */
    public record Difference(String table, int month, long postgresRows, long clickhouseRows,
                             BigInteger postgresChecksum, BigInteger clickhouseChecksum, List<String> rows) {

        /** e.g. {@code leads 2025-03: PostgreSQL 120 rows, ClickHouse 119 rows; checksums differ}. */
        public String summary() {
            String where = month == CdcTable.NO_MONTH ? table : table + " " + (month / 100) + "-" + String.format("%02d", month % 100);
            String sums = postgresChecksum.equals(clickhouseChecksum) ? "checksums equal" : "checksums differ";
            return where + ": PostgreSQL " + postgresRows + " rows, ClickHouse " + clickhouseRows + " rows; " + sums;
        }

        /** {@link #summary()}, then its rows, one per line, indented by two spaces. */
        public String describe() {
            StringBuilder b = new StringBuilder(summary());
            rows.forEach(r -> b.append("\n  ").append(r));
            return b.toString();
        }
    }

    private record Bucket(long rows, BigInteger checksum) {
        static final Bucket EMPTY = new Bucket(0, BigInteger.ZERO);
    }

    private final CdcTables tables;
    private final ClickHouseGateway clickhouse;
    private final DataSource postgres;

    public CdcCheck(CdcTables tables, ClickHouseGateway clickhouse, DataSource postgres) {
        this.tables = tables;
        this.clickhouse = clickhouse;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
    }

    /** Every difference, in table then month order; empty when the stores agree. */
    public List<Difference> run(String table, Integer month) {
        return run(table, month, CdcResync.Progress.NONE);
    }

    /** As {@link #run(String, Integer)}, telling {@code progress} ("check", tables compared, tables in all) after each table. */
    public List<Difference> run(String table, Integer month, CdcResync.Progress progress) {
        List<Difference> out = new ArrayList<>();
        List<CdcTable> all = tables.tables(table);
        int compared = 0;
        for (CdcTable t : all) {
            progress.update("check", compared++, all.size());
            if (month != null && !t.partitioned()) {
                continue;
            }
            Map<Integer, Bucket> pg = postgres(t, month);
            Map<Integer, Bucket> ch = clickhouse(t, month);
            TreeSet<Integer> months = new TreeSet<>(pg.keySet());
            months.addAll(ch.keySet());
            for (int m : months) {
                Bucket a = pg.getOrDefault(m, Bucket.EMPTY);
                Bucket b = ch.getOrDefault(m, Bucket.EMPTY);
                if (!a.equals(b)) {
                    out.add(new Difference(t.name(), m, a.rows(), b.rows(), a.checksum(), b.checksum(), rows(t, m)));
                }
            }
        }
        progress.update("check", all.size(), all.size());
        return out;
    }

    /** The rows of one differing bucket, compared key by key (the view's key) on the same hash as the buckets. */
    private List<String> rows(CdcTable t, int month) {
        Map<String, BigInteger> pgHash = new TreeMap<>();
        Map<String, String> pgRow = new TreeMap<>();
        try (Connection c = postgres.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(t.pgKeyedRows(month))) {
            while (rs.next()) {
                pgHash.put(rs.getString(1), BigInteger.valueOf(rs.getLong(2)).mod(TWO_64));
                pgRow.put(rs.getString(1), rs.getString(3));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL rows of " + t.name() + " failed: " + e.getMessage(), e);
        }
        Map<String, BigInteger> chHash = new TreeMap<>();
        for (JsonNode r : clickhouse.select(t.chKeyedRows(clickhouse.database(), month))) {
            chHash.put(r.get("k").asText(), new BigInteger(r.get("h").asText()).mod(TWO_64));
        }
        List<String> lines = new ArrayList<>();
        TreeSet<String> keys = new TreeSet<>(pgHash.keySet());
        keys.addAll(chHash.keySet());
        for (String k : keys) {
            BigInteger a = pgHash.get(k);
            BigInteger b = chHash.get(k);
            if (b == null) {
                lines.add("only in PostgreSQL: " + k + " " + pgRow.get(k));
            } else if (a == null) {
                lines.add("only in ClickHouse: " + k);
            } else if (!a.equals(b)) {
                lines.add("differs: " + k + " (PostgreSQL: " + pgRow.get(k) + ")");
            }
        }
        if (lines.size() > ROWS_SHOWN) {
            int more = lines.size() - ROWS_SHOWN;
            lines = new ArrayList<>(lines.subList(0, ROWS_SHOWN));
            lines.add("… and " + more + " more rows");
        }
        return lines;
    }

    private Map<Integer, Bucket> postgres(CdcTable t, Integer month) {
        String sql = "SELECT m, count(*), coalesce(sum(h), 0) FROM (SELECT " + t.pgMonth() + " AS m, " + t.pgHash()
                + " AS h FROM public." + CdcTable.q(t.name()) + ") x"
                + (month == null ? "" : " WHERE m = " + month) + " GROUP BY m";
        Map<Integer, Bucket> out = new TreeMap<>();
        try (Connection c = postgres.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getInt(1), new Bucket(rs.getLong(2), rs.getBigDecimal(3).toBigInteger().mod(TWO_64)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL check of " + t.name() + " failed: " + e.getMessage(), e);
        }
        return out;
    }

    private Map<Integer, Bucket> clickhouse(CdcTable t, Integer month) {
        String sql = "SELECT m, count() AS n, sum(h) AS s FROM (" + t.chLiveRows(clickhouse.database()) + ") AS live"
                + (month == null ? "" : " WHERE m = " + month) + " GROUP BY m";
        Map<Integer, Bucket> out = new TreeMap<>();
        for (JsonNode r : clickhouse.select(sql)) {
            out.put(r.get("m").asInt(), new Bucket(r.get("n").asLong(), new BigInteger(r.get("s").asText()).mod(TWO_64)));
        }
        return out;
    }
}
