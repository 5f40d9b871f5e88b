package dev.attribution.cdc.resync;

import dev.attribution.cdc.Mutations;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Rebuilds ClickHouse rows from PostgreSQL while the bridge keeps streaming, table by table (optionally one month).
 *
 * <ol>
 *   <li><b>Pick a version.</b> {@code V = pg_current_wal_insert_lsn() - 1}, then wait until every transaction
 *       running at that moment has ended. Any change the snapshot below cannot see is written after that moment, so
 *       its WAL position, the bridge's version for it, is above V: streamed changes always win over resynced rows.</li>
 *   <li><b>Copy.</b> One REPEATABLE READ snapshot that sees all those transactions as ended; PostgreSQL renders each row as the sink's JSONEachRow object (with
 *       {@code _version = V}); rows go to ClickHouse in chunks of {@value #CHUNK_ROWS}.</li>
 *   <li><b>Drop what was there.</b> {@code ALTER TABLE … DELETE WHERE _version < V} (in the month) removes older
 *       versions and rows PostgreSQL no longer has; rows streamed meanwhile (version ≥ V) stay.</li>
 * </ol>
 * Readers never see a gap: the new rows win over the old ones (higher version) before the old ones go.
 */
@Singleton
@Requires(beans = ClickHouseGateway.class)
public class CdcResync {

    static final int CHUNK_ROWS = 50_000;
    private static final Duration WAIT_FOR_TRANSACTIONS = Duration.ofMinutes(10);

    /** Progress of one table: rows copied so far out of the total. */
    public interface Progress {
        void update(String table, long done, long total);

        Progress NONE = (table, done, total) -> { };
    }

    /** What one table's resync did. */
    public record Result(String table, long rows, long version, long millis) {
    }

    private final CdcTables tables;
    private final ClickHouseGateway clickhouse;
    private final DataSource postgres;
    private final Mutations mutations;

    public CdcResync(CdcTables tables, ClickHouseGateway clickhouse, DataSource postgres, Mutations mutations) {
        this.tables = tables;
        this.clickhouse = clickhouse;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
        this.mutations = mutations;
    }

    /** Resyncs every streamed table (or {@code table}), every month (or {@code month}, YYYYMM). */
    public List<Result> run(String table, Integer month, Progress progress) {
        List<Result> out = new ArrayList<>();
        for (CdcTable t : tables.tables(table)) {
            if (month != null && !t.partitioned()) {
                continue;
            }
            out.add(resync(t, month, progress));
        }
        return out;
    }

    private Result resync(CdcTable t, Integer month, Progress progress) {
        long started = System.currentTimeMillis();
        String where = month == null ? "" : " WHERE " + t.pgMonth() + " = " + month;
        try (Connection c = postgres.getConnection()) {
            c.setAutoCommit(true);
            String[] horizon = new String[1];
            long version = safeVersion(c, horizon);
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            snapshotSeeing(c, horizon[0]);
            long total;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM public." + CdcTable.q(t.name()) + where)) {
                rs.next();
                total = rs.getLong(1);
            }
            progress.update(t.name(), 0, total);
            long done = 0;
            try (Statement s = c.createStatement()) {
                s.setFetchSize(10_000);
                try (ResultSet rs = s.executeQuery("SELECT " + t.pgJson(version) + "::text FROM public." + CdcTable.q(t.name()) + where)) {
                    ByteArrayOutputStream chunk = new ByteArrayOutputStream(1 << 20);
                    int inChunk = 0;
                    while (rs.next()) {
                        chunk.writeBytes(rs.getString(1).getBytes(StandardCharsets.UTF_8));
                        chunk.write('\n');
                        if (++inChunk == CHUNK_ROWS) {
                            clickhouse.insertJsonEachRow(t.name(), chunk.toByteArray());
                            chunk.reset();
                            done += inChunk;
                            inChunk = 0;
                            progress.update(t.name(), done, total);
                        }
                    }
                    if (inChunk > 0) {
                        clickhouse.insertJsonEachRow(t.name(), chunk.toByteArray());
                        done += inChunk;
                    }
                }
            }
            c.commit();
            String scope = month == null ? "" : " AND " + t.chMonthOfTable() + " = " + month;
            mutations.delete(t.name(), "_version < " + version + scope);
            for (String fed : fedTables(t.name())) {
                // a table fed from this one by a materialized view (clicks_by_ad, …) got the new rows too: drop its old ones alike
                mutations.delete(fed, "_version < " + version + scope);
            }
            progress.update(t.name(), done, Math.max(total, done));
            return new Result(t.name(), done, version, System.currentTimeMillis() - started);
        } catch (SQLException e) {
            throw new IllegalStateException("resync of " + t.name() + " failed: " + e.getMessage(), e);
        }
    }

    /**
     * The tables that materialized views copy {@code table}'s inserts into (062_clicks_by_ad.sql, …): same
     * {@code _version}, same partition column, so a resync's rows reach them and its delete applies to them as is.
     */
    List<String> fedTables(String table) {
        String db = clickhouse.database();
        Pattern to = Pattern.compile("\\sTO\\s+`?" + Pattern.quote(db) + "`?\\.`?(\\w+)`?");
        List<String> out = new ArrayList<>();
        for (var view : clickhouse.select("SELECT create_table_query AS q FROM system.tables WHERE database = " + ClickHouseSql.str(db)
                + " AND engine = 'MaterializedView' AND has((SELECT dependencies_table FROM system.tables WHERE database = "
                + ClickHouseSql.str(db) + " AND name = " + ClickHouseSql.str(mutations.stored(table)) + "), name)")) {
            Matcher m = to.matcher(view.get("q").asText());
            if (m.find()) {
                // on a cluster the view reads T_local and writes X_local: X is the table as the delete names it
                out.add(mutations.clustered() ? m.group(1).replaceAll(Mutations.LOCAL + "$", "") : m.group(1));
            }
        }
        return out;
    }

    /**
     * A version below every change the next snapshot cannot see: the WAL insert position now, once each transaction
     * that may be running now has ended. {@code horizon[0]} receives an xid above all of those (a fresh one, taken
     * after the position): the wait is over when the oldest running xid of a new snapshot is at or above it. (The xip
     * list of a snapshot is not enough: it leaves out running xids at or above the snapshot's xmax.)
     */
    static long safeVersion(Connection c, String[] horizon) throws SQLException {
        long lsn;
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn")) {
                rs.next();
                lsn = rs.getLong(1);
            }
            try (ResultSet rs = s.executeQuery("SELECT pg_current_xact_id()::text")) {
                rs.next();
                horizon[0] = rs.getString(1);
            }
        }
        Instant deadline = Instant.now().plus(WAIT_FOR_TRANSACTIONS);
        while (!allEndedBelow(c, horizon[0])) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("transactions running at the start of the resync did not end within "
                        + WAIT_FOR_TRANSACTIONS.toMinutes() + " minutes");
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        return lsn - 1;
    }

    /** True when the current snapshot (a new one in autocommit, the transaction's in REPEATABLE READ) sees every xid below {@code xid} as ended. */
    private static boolean allEndedBelow(Connection c, String xid) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT pg_snapshot_xmin(pg_current_snapshot()) >= ?::xid8")) {
            p.setString(1, xid);
            try (ResultSet rs = p.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /**
     * Takes the transaction's snapshot (its first statement) and makes sure it sees every xid below the horizon as
     * ended (the commit log says "committed" a moment before new snapshots see it); retries with a fresh snapshot.
     */
    private static void snapshotSeeing(Connection c, String horizon) throws SQLException {
        for (int attempt = 0; !allEndedBelow(c, horizon); attempt++) {
            c.rollback();
            if (attempt > 1000) {
                throw new IllegalStateException("no snapshot sees the transactions below xid " + horizon + " as ended");
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
