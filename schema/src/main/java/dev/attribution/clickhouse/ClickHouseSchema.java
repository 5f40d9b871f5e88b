package dev.attribution.clickhouse;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Applies the numbered DDL files under {@code clickhouse/} (listed in order in {@code clickhouse/INDEX}) once
 * each, recording applied versions in {@code <db>.schema_migrations}. Each table and view has its current definition
 * in one file ({@code clickhouse/tables/<name>.sql}, {@code clickhouse/views/<name>.sql}); the numbered files refer to
 * them with directives ({@code @table}, {@code @view}, {@code @column}: {@link DdlDefinitions}) beside the statements
 * that move data (backfills, mutations, drops).
 *
 * <p>Placeholders: {@code {db}} is the database; {@code {{Engine(args)}}} is a MergeTree-family engine, rendered
 * as is on one server, or as its {@code Replicated…} twin (ZooKeeper path and replica macros first) when the
 * deployment is a replicated cluster. On a sharded cluster ({@code clickhouse.cluster}) {@link ClusterDdl} renders
 * each statement {@code ON CLUSTER}, with {@code _local} replicated tables under {@code Distributed} ones.
 */
public final class ClickHouseSchema {

    static final Pattern ENGINE = Pattern.compile("\\{\\{(\\w*MergeTree)\\((.*?)\\)}}");
    private static final Pattern ADD_COLUMN = Pattern.compile("^ALTER\\s+TABLE\\s+\\{db}\\.(\\w+)\\s+ADD\\s+COLUMN\\s+(\\w+)\\s", Pattern.CASE_INSENSITIVE);
    private static final Pattern TABLE = Pattern.compile("CREATE\\s+TABLE\\s+IF\\s+NOT\\s+EXISTS\\s+\\{db}\\.(\\w+)", Pattern.CASE_INSENSITIVE);

    /** A migration may copy a whole table (062, 063 backfill their tables): no HTTP-request-sized limit for it. */
    static final java.time.Duration MIGRATION_TIMEOUT = java.time.Duration.ofHours(12);

    private final ClickHouseGateway gateway;
    private final boolean replicated;
    /** Null on one server (or a replicated cluster whose DDL is applied per node): no ON CLUSTER, no Distributed. */
    private final ClusterDdl cluster;
    /** The classpath folder of the DDL: {@code clickhouse}, or a frozen older chain in a test. */
    private final String root;

    public ClickHouseSchema(ClickHouseGateway gateway, boolean replicated) {
        this(gateway, replicated, "");
    }

    /** {@code cluster}: the remote_servers name of a sharded cluster, or empty for one server. */
    public ClickHouseSchema(ClickHouseGateway gateway, boolean replicated, String cluster) {
        this(gateway, replicated, cluster, ROOT);
    }

    /** The DDL of the classpath folder {@code root} (a test applies a frozen older chain with it). */
    public ClickHouseSchema(ClickHouseGateway gateway, boolean replicated, String cluster, String root) {
        this.gateway = gateway;
        this.replicated = replicated;
        this.root = root;
        this.cluster = cluster == null || cluster.isBlank() ? null : new ClusterDdl(cluster.trim(), shardedTables(root));
    }

    static final String ROOT = "clickhouse";

    /** One DDL file: its number, its name and its statements in order. */
    public record DdlFile(int version, String name, List<String> statements) {
    }

    /** Applies every file not yet applied; returns the names applied now. */
    public List<String> migrate() {
        return migrate(Integer.MAX_VALUE);
    }

    /** Applies every file numbered up to {@code lastVersion} not yet applied; returns the names applied now. */
    public List<String> migrate(int lastVersion) {
        String db = gateway.database();
        if (cluster != null) {
            cluster.bootstrap(db).forEach(gateway::execute);
        } else {
            gateway.execute("CREATE DATABASE IF NOT EXISTS " + db);
            gateway.execute("CREATE TABLE IF NOT EXISTS " + db + ".schema_migrations "
                    + "(version UInt32, name String, applied_at DateTime) ENGINE = MergeTree() ORDER BY version");
        }
        Set<Integer> applied = new HashSet<>();
        gateway.select("SELECT version FROM " + db + ".schema_migrations").forEach(r -> applied.add(r.get("version").asInt()));
        List<String> now = new ArrayList<>();
        for (DdlFile file : files(root)) {
            if (applied.contains(file.version()) || file.version() > lastVersion) {
                continue;
            }
            for (String statement : file.statements()) {
                if (hasColumnAlready(statement, db)) {
                    continue;
                }
                for (String rendered : renderAll(statement, db)) {
                    gateway.execute(rendered, MIGRATION_TIMEOUT);
                }
            }
            gateway.execute("INSERT INTO " + db + ".schema_migrations (version, name, applied_at) VALUES ("
                    + file.version() + ", " + ClickHouseSql.str(file.name()) + ", now())");
            now.add(file.name());
        }
        return now;
    }

    /** An {@code ADD COLUMN} whose column the table has already (created from its current file): skipped. */
    private boolean hasColumnAlready(String statement, String db) {
        Matcher add = ADD_COLUMN.matcher(statement.trim());
        return add.find() && !gateway.select("SELECT name FROM system.columns WHERE database = " + ClickHouseSql.str(db)
                + " AND table = " + ClickHouseSql.str(add.group(1)) + " AND name = " + ClickHouseSql.str(add.group(2))).isEmpty();
    }

    /** The DDL files in order, read from the classpath, directives resolved to the statements they stand for. */
    public static List<DdlFile> files() {
        return files(ROOT);
    }

    /** The DDL files of the classpath folder {@code root} (a frozen older chain in a test). */
    public static List<DdlFile> files(String root) {
        DdlDefinitions definitions = new DdlDefinitions(root);
        List<DdlFile> files = new ArrayList<>();
        for (String line : definitions.read("INDEX").split("\n")) {
            String name = line.trim();
            if (name.isEmpty() || name.startsWith("#")) {
                continue;
            }
            int version = Integer.parseInt(name.substring(0, name.indexOf('_')));
            List<String> statements = new ArrayList<>();
            for (String statement : statements(definitions.read(name))) {
                statements.addAll(DdlDefinitions.isDirective(statement) ? definitions.expand(statement) : List.of(statement));
            }
            files.add(new DdlFile(version, name, statements));
        }
        return files;
    }

    /** The statements one DDL statement becomes on this deployment: itself rendered, or several on a sharded cluster. */
    public List<String> renderAll(String statement, String db) {
        return cluster == null ? List.of(render(statement, db)) : cluster.render(statement, db);
    }

    /** The tables the DDL files create with a MergeTree engine placeholder (sharded on a cluster). */
    static Set<String> shardedTables() {
        return shardedTables(ROOT);
    }

    static Set<String> shardedTables(String root) {
        Set<String> tables = new HashSet<>();
        for (DdlFile file : files(root)) {
            for (String statement : file.statements()) {
                Matcher table = TABLE.matcher(statement);
                if (table.find() && ENGINE.matcher(statement).find()) {
                    tables.add(table.group(1));
                }
            }
        }
        return tables;
    }

    /**
     * The {@code {{XMergeTree(args)}}} placeholders of {@code statement} as {@code ReplicatedXMergeTree} with the
     * table's ZooKeeper path under the {@code {shard}} macro and the {@code {replica}} macro (per-node and ON CLUSTER
     * rendering alike).
     */
    static String replicatedEngine(String statement, String db, String table) {
        Matcher m = ENGINE.matcher(statement);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String args = m.group(2).isBlank() ? "" : ", " + m.group(2);
            m.appendReplacement(out, Matcher.quoteReplacement("Replicated" + m.group(1)
                    + "('/clickhouse/tables/{shard}/" + db + "/" + table + "', '{replica}'" + args + ")"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Renders placeholders for one server or a replicated cluster whose DDL is applied per node. */
    public String render(String statement, String db) {
        String withDb = statement;
        if (replicated) {
            Matcher table = TABLE.matcher(statement);
            withDb = replicatedEngine(withDb, db, table.find() ? table.group(1) : "unknown");
        } else {
            withDb = ENGINE.matcher(withDb).replaceAll("$1($2)");
        }
        return withDb.replace("{db}", db);
    }

    static List<String> statements(String text) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (trimmed.startsWith("--")) {
                continue;
            }
            if (DdlDefinitions.isDirective(trimmed) && current.toString().isBlank()) {
                out.add(trimmed);
                current.setLength(0);
                continue;
            }
            current.append(line).append('\n');
            if (trimmed.endsWith(";")) {
                String s = current.toString().trim();
                out.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(current.toString().trim());
        }
        return out;
    }
}
