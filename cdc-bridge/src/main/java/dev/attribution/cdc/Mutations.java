package dev.attribution.cdc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseGatewayException;
import dev.attribution.clickhouse.ClickHouseSettings;
import dev.attribution.clickhouse.ClickHouseSql;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code ALTER TABLE … DELETE} that returns once the rows are gone. 18.16 has no {@code mutations_sync} setting
 * (current releases do), so both are served the same way: run the mutation, then poll {@code system.mutations}
 * until no mutation of the table is pending.
 * <p>On a sharded cluster ({@code clickhouse.cluster}, docs/scaling.md) a table {@code T} is a {@code Distributed}
 * table, which takes no mutation: the delete goes to {@code T_local ON CLUSTER} (18.16 runs it on one replica per
 * shard; replication brings it to the other), and the wait polls {@code system.mutations} of every node of the
 * cluster ({@code remote()}) until each shows a mutation newer than before the delete and none pending. Reads keep
 * going through {@code T}.
 * <p>An {@code ON CLUSTER} statement that outlasts {@code distributed_ddl_task_timeout} (error 159: a node's DDL worker
 * did not take the task; on 18.16 a replica restarted under a running DDL queue can leave its worker stopped after a
 * ZooKeeper "Node exists" race) is not a failure by itself: the other replica of that shard runs it, and replication,
 * not the DDL queue, brings the mutation to every replica. So the wait, which checks the mutation on every node, decides;
 * when it gives up, its message names each node's pending mutations.
 */
@Singleton
@Requires(beans = ClickHouseGateway.class)
public final class Mutations {

    private static final Logger LOG = LoggerFactory.getLogger(Mutations.class);
    private static final Duration TIMEOUT = Duration.ofMinutes(10);
    /** In ClickHouse's error 159: an ON CLUSTER statement some node's DDL worker has not run in time. */
    private static final String DDL_TIMEOUT = "distributed_ddl_task_timeout";
    public static final String LOCAL = "_local";

    private final ClickHouseGateway clickhouse;
    private final String cluster;

    @Inject
    public Mutations(ClickHouseGateway clickhouse, ClickHouseSettings settings) {
        this(clickhouse, settings.getCluster());
    }

    /** On the cluster {@code cluster} (a remote_servers name; null or blank: one server). */
    public Mutations(ClickHouseGateway clickhouse, String cluster) {
        this.clickhouse = clickhouse;
        this.cluster = cluster == null || cluster.isBlank() ? null : cluster.trim();
    }

    /** True on a sharded cluster: tables are {@code Distributed} over {@code _local} ones. */
    public boolean clustered() {
        return cluster != null;
    }

    /** The table that stores {@code table}'s rows: {@code T_local} on a cluster, else {@code T}. */
    public String stored(String table) {
        return cluster == null ? table : table + LOCAL;
    }

    /** Deletes the rows of {@code table} (of the configured database) matching {@code where}; returns when done. */
    public void delete(String table, String where) {
        delete(clickhouse.database(), table, where);
    }

    /** Deletes the rows of {@code database.table} matching {@code where} and waits until the mutation is done. */
    public void delete(String database, String table, String where) {
        if (cluster == null) {
            clickhouse.execute("ALTER TABLE " + database + "." + table + " DELETE WHERE " + where);
            awaitDone(database, table);
            return;
        }
        String local = stored(table);
        Map<String, String> before = newestMutation(database, local);
        try {
            clickhouse.execute("ALTER TABLE " + database + "." + local + " ON CLUSTER " + cluster + " DELETE WHERE " + where,
                    Duration.ofMinutes(5));
        } catch (ClickHouseGatewayException e) {
            if (!String.valueOf(e.getMessage()).contains(DDL_TIMEOUT)) {
                throw e;
            }
            LOG.warn("ALTER {}.{} ON CLUSTER {}: not every node's DDL worker took it within {}; waiting for the mutation"
                    + " on every replica instead ({})", database, local, cluster, DDL_TIMEOUT, e.getMessage());
        }
        awaitDoneEverywhere(database, local, before);
    }

    private void awaitDone(String database, String table) {
        String pending = "SELECT count() AS n FROM system.mutations WHERE database = " + ClickHouseSql.str(database)
                + " AND table = " + ClickHouseSql.str(table) + " AND is_done = 0";
        await(table, () -> clickhouse.select(pending).get(0).get("n").asLong() == 0, () -> "");
    }

    /** Every node: a mutation newer than {@code before} is listed and none is pending. */
    private void awaitDoneEverywhere(String database, String local, Map<String, String> before) {
        await(local, () -> {
            Map<String, String> now = newestMutation(database, local);
            for (Map.Entry<String, String> node : before.entrySet()) {
                String newest = now.getOrDefault(node.getKey(), "");
                if (newest.compareTo(node.getValue()) <= 0) {
                    return false;
                }
            }
            return nodes().stream().allMatch(n -> clickhouse.select("SELECT count() AS n FROM remote(" + ClickHouseSql.str(n)
                    + ", system, mutations) WHERE database = " + ClickHouseSql.str(database) + " AND table = "
                    + ClickHouseSql.str(local) + " AND is_done = 0").get(0).get("n").asLong() == 0);
        }, () -> pendingEverywhere(database, local, before));
    }

    /** For the give-up message: per node, the newest mutation before the delete and each pending one (id: parts to do). */
    private String pendingEverywhere(String database, String local, Map<String, String> before) {
        StringBuilder out = new StringBuilder();
        for (String n : nodes()) {
            List<String> pending = new ArrayList<>();
            for (JsonNode r : clickhouse.select("SELECT mutation_id AS m, toString(parts_to_do) AS p FROM remote(" + ClickHouseSql.str(n)
                    + ", system, mutations) WHERE database = " + ClickHouseSql.str(database) + " AND table = "
                    + ClickHouseSql.str(local) + " AND is_done = 0 ORDER BY mutation_id")) {
                pending.add(r.get("m").asText() + ": " + r.get("p").asText() + " parts to do");
            }
            out.append("; ").append(n).append(" (newest before: ").append(before.getOrDefault(n, "?")).append(") pending ")
                    .append(pending);
        }
        return out.toString();
    }

    /** Node (host:port) → its newest mutation id of the table ("" when none); replicated ids are zero-padded, ordered as text. */
    private Map<String, String> newestMutation(String database, String local) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String n : nodes()) {
            out.put(n, clickhouse.select("SELECT max(mutation_id) AS m FROM remote(" + ClickHouseSql.str(n) + ", system, mutations)"
                    + " WHERE database = " + ClickHouseSql.str(database) + " AND table = " + ClickHouseSql.str(local))
                    .get(0).get("m").asText(""));
        }
        return out;
    }

    /** host:port (native) of every node of the cluster. */
    private List<String> nodes() {
        List<String> out = new ArrayList<>();
        for (JsonNode r : clickhouse.select("SELECT host_address AS h, toString(port) AS p FROM system.clusters WHERE cluster = "
                + ClickHouseSql.str(cluster) + " ORDER BY shard_num, replica_num")) {
            out.add(r.get("h").asText() + ":" + r.get("p").asText());
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("no cluster " + cluster + " in system.clusters (clickhouse.cluster)");
        }
        return out;
    }

    private static void await(String table, java.util.function.BooleanSupplier done, java.util.function.Supplier<String> state) {
        Instant deadline = Instant.now().plus(TIMEOUT);
        while (!done.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("ClickHouse mutation on " + table + " not done after " + TIMEOUT.toMinutes()
                        + " minutes" + state.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
