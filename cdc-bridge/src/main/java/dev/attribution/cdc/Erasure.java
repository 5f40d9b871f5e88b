package dev.attribution.cdc;

import dev.attribution.clickhouse.CurrentRow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.BiDatabases;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Erasure of one lead in ClickHouse (spec 3.2, DELETE /leads). PostgreSQL redacts the lead and deletes what hangs off
 * it; the bridge streams that as new versions — but ReplacingMergeTree keeps the old versions (and a delete's
 * tombstone carries the deleted row) until merges, which may never come. {@link #erase} removes them:
 *
 * <ol>
 *   <li>waits until the bridge has streamed and committed everything written before the call (the slot's
 *       {@code confirmed_flush_lsn} reaches the WAL position of the call), so no replay can bring an old version back;</li>
 *   <li>in every ClickHouse table holding rows of leads ({@code account_id} plus {@code lead_id}, or {@code id} in
 *       {@code leads}), deletes every row of the lead except the newest version of each key still alive
 *       ({@code ALTER TABLE … DELETE}, waited for: see {@link Mutations}). Keys whose newest version is a delete go
 *       entirely, tombstone included.</li>
 * </ol>
 * Call it after the redaction committed. Works on 18.16 and current releases alike.
 */
@Singleton
@Requires(beans = ClickHouseGateway.class)
public class Erasure {

    private static final Duration STREAM_TIMEOUT = Duration.ofMinutes(2);

    private final ClickHouseGateway clickhouse;
    private final DataSource postgres;
    private final CdcSettings settings;
    private final Mutations mutations;

    public Erasure(ClickHouseGateway clickhouse, DataSource postgres, CdcSettings settings, Mutations mutations) {
        this.clickhouse = clickhouse;
        this.postgres = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(postgres);
        this.settings = settings;
        this.mutations = mutations;
    }

    /** What was removed: table → rows deleted. */
    public Map<String, Long> erase(String accountId, String leadId) {
        return plan(accountId, leadId).apply();
    }

    /**
     * What {@link Plan#apply} will delete for this lead, counted now (after waiting for the stream). A merge between
     * plan and apply only folds rows the plan deletes anyway: the newest version of each live key stays either way.
     */
    public Plan plan(String accountId, String leadId) {
        awaitStreamed();
        List<Deletion> deletions = new ArrayList<>();
        // the account's BI copies (scripts/admin bi grant on ClickHouse before 20.4) hold the lead's rows too
        for (String db : BiDatabases.valid(accountId) ? List.of(clickhouse.database(), BiDatabases.of(accountId)) : List.of(clickhouse.database())) {
            for (Map.Entry<String, String> t : leadTables(db).entrySet()) {
                Deletion d = deletionIn(db, t.getKey(), t.getValue(), accountId, leadId);
                if (d != null) {
                    deletions.add(d);
                }
            }
        }
        return new Plan(List.copyOf(deletions));
    }

    /** The rows of one table to delete: {@code rows} of them, matching {@code where}. */
    record Deletion(String database, String table, String where, long rows) {
        /** The table as reported: {@code table}, or {@code database.table} outside the configured database. */
        String name(String main) {
            return database.equals(main) ? table : database + "." + table;
        }
    }

    /** The deletions of one lead's erasure, table by table. */
    public final class Plan {
        private final List<Deletion> deletions;

        private Plan(List<Deletion> deletions) {
            this.deletions = deletions;
        }

        /** table → rows the plan deletes. */
        public Map<String, Long> rows() {
            Map<String, Long> rows = new LinkedHashMap<>();
            deletions.forEach(d -> rows.put(d.name(clickhouse.database()), d.rows()));
            return rows;
        }

        /** Runs the deletions, each waited for; returns {@link #rows}. */
        public Map<String, Long> apply() {
            deletions.forEach(d -> mutations.delete(d.database(), d.table(), d.where()));
            return rows();
        }
    }

    /** Waits until the slot's confirmed position passes the WAL head as of now (heartbeats keep it moving). */
    public void awaitStreamed() {
        try (Connection c = postgres.getConnection(); Statement s = c.createStatement()) {
            long target;
            try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
                rs.next();
                target = rs.getLong(1);
            }
            Instant deadline = Instant.now().plus(STREAM_TIMEOUT);
            try (PreparedStatement p = c.prepareStatement(
                    "SELECT confirmed_flush_lsn - '0/0'::pg_lsn FROM pg_replication_slots WHERE slot_name = ?")) {
                p.setString(1, settings.getSlotName());
                while (true) {
                    try (ResultSet rs = p.executeQuery()) {
                        if (!rs.next()) {
                            throw new IllegalStateException("no replication slot " + settings.getSlotName() + ": is the CDC bridge running?");
                        }
                        if (rs.getLong(1) >= target) {
                            return;
                        }
                    }
                    if (Instant.now().isAfter(deadline)) {
                        throw new IllegalStateException("the CDC bridge did not reach the WAL position of the erasure within "
                                + STREAM_TIMEOUT.toSeconds() + " s");
                    }
                    Thread.sleep(50);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the replication slot: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Versioned ClickHouse tables of {@code database} holding rows of leads → the column naming the lead; none when the
     * database does not exist. On a cluster the stored {@code T_local} tables are found and named {@code T}: reads go
     * through the Distributed table, the delete to {@code T_local} ({@link Mutations}).
     */
    Map<String, String> leadTables(String database) {
        Map<String, List<String>> columns = new LinkedHashMap<>();
        // stored tables only: a materialized view (its columns are listed too) reads through to its target table,
        // which is erased under its own name
        String db = ClickHouseSql.str(database);
        clickhouse.select("SELECT table, name FROM system.columns WHERE database = " + db + " AND table NOT LIKE '.inner%'"
                        + " AND table IN (SELECT name FROM system.tables WHERE database = " + db + " AND engine LIKE '%MergeTree')")
                .forEach(r -> columns.computeIfAbsent(r.get("table").asText(), k -> new ArrayList<>()).add(r.get("name").asText()));
        Map<String, String> out = new LinkedHashMap<>();
        columns.forEach((stored, names) -> {
            if (mutations.clustered() && !stored.endsWith(Mutations.LOCAL)) {
                return;
            }
            String table = mutations.clustered() ? stored.substring(0, stored.length() - Mutations.LOCAL.length()) : stored;
            if (names.contains("account_id") && names.contains("_version") && names.contains("is_deleted")) {
                if (names.contains("lead_id")) {
                    out.put(table, "lead_id");
                } else if (table.equals("leads") && names.contains("id")) {
                    out.put(table, "id");
                }
            }
        });
        return out;
    }

    private Deletion deletionIn(String db, String table, String leadColumn, String accountId, String leadId) {
        String lead = "account_id = " + ClickHouseSql.str(accountId) + " AND " + leadColumn + " = " + ClickHouseSql.str(leadId);
        List<String> key = sortingKey(db, mutations.stored(table));
        String keyList = String.join(", ", key);
        long total = clickhouse.select("SELECT count() AS n FROM " + db + "." + table + " WHERE " + lead).get(0).get("n").asLong();
        if (total == 0) {
            return null;
        }
        // the newest version of each key of this lead that is still alive stays
        List<String> keep = new ArrayList<>();
        String alive = "SELECT " + key.stream().map(k -> "toString(" + k + ") AS k_" + k).collect(Collectors.joining(", "))
                + ", toString(max(_version)) AS v FROM " + db + "." + table + " WHERE " + lead + " GROUP BY " + keyList
                + " HAVING " + CurrentRow.live();
        for (JsonNode r : clickhouse.select(alive)) {
            keep.add("(" + key.stream().map(k -> ClickHouseSql.str(r.get("k_" + k).asText())).collect(Collectors.joining(", "))
                    + ", " + r.get("v").asText() + ")");
        }
        if (keep.size() == total) {
            return null;
        }
        String stays = keep.isEmpty() ? "" : " AND NOT ((" + key.stream().map(k -> "toString(" + k + ")").collect(Collectors.joining(", "))
                + ", _version) IN (" + String.join(", ", keep) + "))";
        return new Deletion(db, table, lead + stays, total - keep.size());
    }

    private List<String> sortingKey(String db, String table) {
        String sorting = clickhouse.select("SELECT sorting_key FROM system.tables WHERE database = " + ClickHouseSql.str(db)
                + " AND name = " + ClickHouseSql.str(table)).get(0).get("sorting_key").asText().replaceAll("^\\((.*)\\)$", "$1");
        return java.util.Arrays.stream(sorting.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
