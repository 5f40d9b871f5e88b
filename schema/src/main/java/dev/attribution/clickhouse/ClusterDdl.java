package dev.attribution.clickhouse;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The numbered DDL files rendered for a sharded, replicated ClickHouse cluster ({@code clickhouse.cluster}; layout and
 * reasons in docs/scaling.md). Every statement runs {@code ON CLUSTER}, so one node applies it to all of them:
 * <ul>
 *   <li>a MergeTree table {@code T} becomes {@code T_local} with its {@code Replicated…} engine (ZooKeeper path
 *       {@code /clickhouse/tables/{shard}/<db>/T}, replica {@code {replica}}) on every node, plus {@code T}, a
 *       {@code Distributed} table over the {@code T_local} tables sharded by {@code cityHash64(account_id)}: an
 *       account's rows are all on one shard, so reads, joins and {@code IN} subqueries of one account stay local;</li>
 *   <li>views read {@code T} (the Distributed table) as on one server; materialized views read and write the
 *       {@code _local} tables (an insert forwarded to a shard feeds that shard's view there);</li>
 *   <li>{@code ALTER} goes to {@code T_local} (18.16 runs an ALTER of a replicated table on one replica per shard and
 *       refuses one on a Distributed table of a cluster with internal replication): a column change then drops and
 *       recreates {@code T} with the new structure (a Distributed table holds no data: inserts are synchronous);</li>
 *   <li>{@code INSERT … SELECT} (the backfills) run as written, through the Distributed tables, once.</li>
 * </ul>
 */
final class ClusterDdl {

    static final String LOCAL = "_local";
    private static final Pattern CREATE_TABLE = Pattern.compile("^(CREATE\\s+TABLE\\s+IF\\s+NOT\\s+EXISTS\\s+\\{db}\\.)(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern CREATE_VIEW = Pattern.compile("^(CREATE\\s+(MATERIALIZED\\s+)?VIEW\\s+IF\\s+NOT\\s+EXISTS\\s+\\{db}\\.)(\\w+)", Pattern.CASE_INSENSITIVE);
    private static final Pattern ALTER = Pattern.compile("^ALTER\\s+TABLE\\s+\\{db}\\.(\\w+)\\s+(.*)$", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern COLUMN_CHANGE = Pattern.compile("^(ADD|DROP|MODIFY|RENAME)\\s+COLUMN", Pattern.CASE_INSENSITIVE);
    private static final Pattern DROP = Pattern.compile("^(DROP\\s+TABLE\\s+IF\\s+EXISTS\\s+\\{db}\\.)(\\w+)", Pattern.CASE_INSENSITIVE);

    private final String cluster;
    private final Set<String> sharded;

    /** {@code sharded}: the tables the DDL files create with a MergeTree engine placeholder. */
    ClusterDdl(String cluster, Set<String> sharded) {
        if (!cluster.matches("\\w+")) {
            throw new IllegalArgumentException("clickhouse.cluster must be a remote_servers name (letters, digits, _): " + cluster);
        }
        this.cluster = cluster;
        this.sharded = sharded;
    }

    /** The database and the cluster-wide migrations table (one ZooKeeper path for the whole cluster). */
    List<String> bootstrap(String db) {
        return List.of("CREATE DATABASE IF NOT EXISTS " + db + " ON CLUSTER " + cluster,
                "CREATE TABLE IF NOT EXISTS " + db + ".schema_migrations ON CLUSTER " + cluster
                        + " (version UInt32, name String, applied_at DateTime) ENGINE = ReplicatedMergeTree("
                        + "'/clickhouse/tables/all/" + db + "/schema_migrations', '{shard}_{replica}') ORDER BY version");
    }

    /** The statements one statement of a DDL file becomes on the cluster, in order, with {@code {db}} rendered. */
    List<String> render(String statement, String db) {
        String s = statement.trim();
        List<String> out = new ArrayList<>();
        Matcher m;
        if ((m = CREATE_TABLE.matcher(s)).find() && ClickHouseSchema.ENGINE.matcher(s).find()) {
            String table = m.group(2);
            String local = m.group(1) + table + LOCAL + onCluster() + s.substring(m.end());
            out.add(ClickHouseSchema.replicatedEngine(local, db, table));
            out.add(distributed(db, table));
        } else if ((m = CREATE_VIEW.matcher(s)).find()) {
            String rest = s.substring(m.end());
            out.add(m.group(1) + m.group(3) + onCluster() + (m.group(2) == null ? rest : toLocal(rest)));
        } else if ((m = ALTER.matcher(s)).find() && sharded.contains(m.group(1))) {
            String table = m.group(1);
            out.add("ALTER TABLE {db}." + table + LOCAL + onCluster() + " " + m.group(2));
            if (COLUMN_CHANGE.matcher(m.group(2)).find()) {
                out.add("DROP TABLE IF EXISTS {db}." + table + onCluster());
                out.add(distributed(db, table));
            }
        } else if ((m = DROP.matcher(s)).find()) {
            out.add(m.group(1) + m.group(2) + onCluster() + s.substring(m.end()));
            if (sharded.contains(m.group(2))) {
                out.add(m.group(1) + m.group(2) + LOCAL + onCluster() + s.substring(m.end()));
            }
        } else {
            out.add(s);
        }
        return out.stream().map(x -> x.replace("{db}", db)).toList();
    }

    private String onCluster() {
        return " ON CLUSTER " + cluster;
    }

    private String distributed(String db, String table) {
        return "CREATE TABLE IF NOT EXISTS {db}." + table + onCluster() + " AS {db}." + table + LOCAL
                + " ENGINE = Distributed(" + cluster + ", " + db + ", " + table + LOCAL + ", cityHash64(account_id))";
    }


    /** Every sharded table named in {@code sql} as {@code {db}.T} becomes {@code {db}.T_local}. */
    private String toLocal(String sql) {
        Matcher m = Pattern.compile("\\{db}\\.(\\w+)").matcher(sql);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = sharded.contains(m.group(1)) ? m.group(1) + LOCAL : m.group(1);
            m.appendReplacement(out, Matcher.quoteReplacement("{db}." + name));
        }
        m.appendTail(out);
        return out.toString();
    }
}
