package dev.attribution.server.admin;

import dev.attribution.clickhouse.BiDatabases;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSchema;
import dev.attribution.clickhouse.ClickHouseSql;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Per-account read-only ClickHouse users for BI tools ({@code scripts/admin bi grant|revoke}; docs/clickhouse-schema.md
 * "Per-account BI access"). What each engine needs is rendered from its version:
 * <ul>
 *   <li>before 20.4 (Debian's 18.16: no SQL users, a users.xml row filter is ignored, a view over another database is
 *   refused): a database {@code bi_<account>} holding, per streamed table, a copy of the account's rows fed by a
 *   materialized view filtered by account (backfilled once) and the table's {@code _current} view over that copy; a
 *   users.d file gives the user only that database, profile {@code readonly};</li>
 *   <li>20.4 and later: {@code CREATE USER … SETTINGS readonly = 1}, {@code GRANT SELECT ON <db>.*}, a row policy
 *   {@code account_id = '<account>'} for the user and one that keeps every other user seeing every row.</li>
 * </ul>
 */
public final class BiAccess {

    static final String EVERYONE_ELSE = "bi_everyone_else";
    private static final Pattern VIEW = Pattern.compile("CREATE VIEW IF NOT EXISTS \\{db}\\.(\\w+) AS");

    /** What a grant made: the user, the database it reads, how it isolates. */
    record Grant(String user, String password, String database, String mode) {
    }

    private final ClickHouseGateway clickhouse;
    private final List<String> tables;
    /** The remote_servers name of a sharded cluster (clickhouse.cluster), or null on one server. */
    private final String cluster;

    BiAccess(ClickHouseGateway clickhouse, List<String> tables, String cluster) {
        this.clickhouse = clickhouse;
        this.tables = tables;
        this.cluster = cluster == null || cluster.isBlank() ? null : cluster.trim();
    }

    static String user(String account) {
        return BiDatabases.of(account);
    }

    /** True when the engine has SQL users and row policies (20.4 and later). */
    boolean rowPolicies() {
        String v = clickhouse.select("SELECT version() AS v").get(0).get("v").asText();
        return rowPolicies(v);
    }

    public static boolean rowPolicies(String version) {
        String[] p = version.split("\\.");
        int major = Integer.parseInt(p[0]);
        int minor = p.length > 1 ? Integer.parseInt(p[1]) : 0;
        return major > 20 || (major == 20 && minor >= 4);
    }

    // ------------------------------------------------------------------------------------------------ 20.4 and later

    /** The statements a current release runs for a grant; {@code granted}: every bi user after it. */
    public static List<String> rowPolicyGrant(String db, String account, String password, List<String> granted) {
        String u = user(account);
        List<String> out = new ArrayList<>();
        out.add("CREATE USER IF NOT EXISTS " + u + " IDENTIFIED WITH sha256_password BY " + ClickHouseSql.str(password)
                + " SETTINGS readonly = 1");
        out.add("GRANT SELECT ON " + db + ".* TO " + u);
        out.add("CREATE ROW POLICY OR REPLACE " + u + " ON " + db + ".* USING account_id = " + ClickHouseSql.str(account) + " TO " + u);
        out.add(everyoneElse(db, granted));
        return out;
    }

    public static List<String> rowPolicyRevoke(String db, String account, List<String> remaining) {
        String u = user(account);
        List<String> out = new ArrayList<>();
        out.add("DROP ROW POLICY IF EXISTS " + u + " ON " + db + ".*");
        out.add("DROP USER IF EXISTS " + u);
        out.add(remaining.isEmpty() ? "DROP ROW POLICY IF EXISTS " + EVERYONE_ELSE + " ON " + db + ".*" : everyoneElse(db, remaining));
        return out;
    }

    /** A table with a row policy hides every row from users no policy names: this one names everyone but the bi users. */
    private static String everyoneElse(String db, List<String> granted) {
        return "CREATE ROW POLICY OR REPLACE " + EVERYONE_ELSE + " ON " + db + ".* USING 1 TO ALL EXCEPT " + String.join(", ", granted);
    }

    // ------------------------------------------------------------------------------------------------ before 20.4

    /**
     * The statements 18.16 runs for a grant: database, per table a copy fed by account, backfill, the view. On a sharded
     * cluster the copy is laid out as the main tables are (docs/scaling.md): {@code T_local} with the replicated engine of
     * the main {@code T_local} under a ZooKeeper path of its own, fed on each node from the main {@code T_local} (the
     * replica that takes an insert feeds the copy, replication brings it to the other), a Distributed {@code T} over it
     * with the same shard key, the views, all {@code ON CLUSTER}.
     */
    List<String> copyGrant(String account) {
        if (cluster != null) {
            return clusterCopyGrant(account);
        }
        String db = clickhouse.database();
        String bi = user(account);
        String acc = ClickHouseSql.str(account);
        Map<String, String> views = views();
        List<String> out = new ArrayList<>();
        out.add("CREATE DATABASE IF NOT EXISTS " + bi);
        for (String t : tables) {
            out.add("CREATE TABLE IF NOT EXISTS " + bi + "." + t + " AS " + db + "." + t);
            out.add("CREATE MATERIALIZED VIEW IF NOT EXISTS " + bi + "." + t + "_feed TO " + bi + "." + t
                    + " AS SELECT * FROM " + db + "." + t + " WHERE account_id = " + acc);
            // rows written between the feed and this copy arrive twice with one _version: the dedup rule counts them once
            out.add("INSERT INTO " + bi + "." + t + " SELECT * FROM " + db + "." + t + " WHERE account_id = " + acc);
            if (views.containsKey(t + "_current")) {
                out.add(views.get(t + "_current").replace("{db}", bi));
            }
        }
        return out;
    }

    private List<String> clusterCopyGrant(String account) {
        String db = clickhouse.database();
        String bi = user(account);
        String acc = ClickHouseSql.str(account);
        String on = " ON CLUSTER " + cluster;
        Map<String, String> views = views();
        List<String> out = new ArrayList<>();
        out.add("CREATE DATABASE IF NOT EXISTS " + bi + on);
        for (String t : tables) {
            String local = t + "_local";
            out.add("CREATE TABLE IF NOT EXISTS " + bi + "." + local + on + " AS " + db + "." + local + " ENGINE = " + copyEngine(db, bi, t));
            out.add("CREATE TABLE IF NOT EXISTS " + bi + "." + t + on + " AS " + bi + "." + local + " ENGINE = Distributed("
                    + cluster + ", " + bi + ", " + local + ", cityHash64(account_id))");
            out.add("CREATE MATERIALIZED VIEW IF NOT EXISTS " + bi + "." + t + "_feed" + on + " TO " + bi + "." + local
                    + " AS SELECT * FROM " + db + "." + local + " WHERE account_id = " + acc);
            out.add("INSERT INTO " + bi + "." + t + " SELECT * FROM " + db + "." + t + " WHERE account_id = " + acc);
            if (views.containsKey(t + "_current")) {
                out.add(views.get(t + "_current").replace("{db}." + t + "_current AS", "{db}." + t + "_current" + on + " AS").replace("{db}", bi));
            }
        }
        return out;
    }

    /** The engine of the main {@code T_local} with the copy's own ZooKeeper path ({@code …/<bi>/T} for {@code …/<db>/T}). */
    private String copyEngine(String db, String bi, String table) {
        String create = clickhouse.select("SELECT create_table_query AS q FROM system.tables WHERE database = " + ClickHouseSql.str(db)
                + " AND name = " + ClickHouseSql.str(table + "_local")).get(0).get("q").asText();
        String engine = create.substring(create.indexOf("ENGINE = ") + "ENGINE = ".length());
        String path = "/" + db + "/" + table + "'";
        if (!engine.contains(path)) {
            throw new IllegalStateException("unexpected engine of " + db + "." + table + "_local: " + engine);
        }
        return engine.replace(path, "/" + bi + "/" + table + "'");
    }

    List<String> copyRevoke(String account) {
        String bi = user(account);
        String on = cluster == null ? "" : " ON CLUSTER " + cluster;
        List<String> out = new ArrayList<>();
        for (String t : tables) {
            out.add("DROP TABLE IF EXISTS " + bi + "." + t + "_feed" + on);
        }
        out.add("DROP DATABASE IF EXISTS " + bi + on);
        return out;
    }

    /** The newest definition of each {@code _current} view in the DDL files. */
    static Map<String, String> views() {
        Map<String, String> out = new LinkedHashMap<>();
        for (ClickHouseSchema.DdlFile f : ClickHouseSchema.files()) {
            for (String s : f.statements()) {
                Matcher m = VIEW.matcher(s);
                if (m.find()) {
                    out.put(m.group(1), s);
                }
            }
        }
        return out;
    }

    /** The users.d file of an 18.16 user: its password hash, profile readonly, only its own database. */
    static String usersFile(String account, String password) {
        String u = user(account);
        return """
                <yandex>
                  <users>
                    <%s>
                      <password_sha256_hex>%s</password_sha256_hex>
                      <networks><ip>::/0</ip></networks>
                      <profile>readonly</profile>
                      <quota>default</quota>
                      <allow_databases><database>%s</database></allow_databases>
                    </%s>
                  </users>
                </yandex>
                """.formatted(u, sha256(password), u, u);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ------------------------------------------------------------------------------------------------ run

    Grant grant(String account, String password, List<Path> usersDirs) throws IOException {
        String u = user(account);
        if (rowPolicies()) {
            List<String> granted = new ArrayList<>(biUsers());
            if (!granted.contains(u)) {
                granted.add(u);
            }
            rowPolicyGrant(clickhouse.database(), account, password, granted).forEach(clickhouse::execute);
            return new Grant(u, password, clickhouse.database(), "row policy");
        }
        if (usersDirs.isEmpty()) {
            throw new IllegalArgumentException("ClickHouse " + version() + " has no SQL users: give --users-dir, the users.d directory "
                    + "beside the server's users.xml (on a cluster: once per node)");
        }
        for (String s : copyGrant(account)) {
            clickhouse.execute(s, java.time.Duration.ofHours(1));
        }
        for (Path usersDir : usersDirs) {
            Files.createDirectories(usersDir);
            Path tmp = usersDir.resolve("." + u + ".xml.tmp");
            Files.writeString(tmp, usersFile(account, password));
            Files.move(tmp, usersDir.resolve(u + ".xml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        }
        return new Grant(u, password, u, "per-account copy");
    }

    void revoke(String account, List<Path> usersDirs) throws IOException {
        String u = user(account);
        if (rowPolicies()) {
            List<String> remaining = new ArrayList<>(biUsers());
            remaining.remove(u);
            rowPolicyRevoke(clickhouse.database(), account, remaining).forEach(clickhouse::execute);
            return;
        }
        if (usersDirs.isEmpty()) {
            throw new IllegalArgumentException("ClickHouse " + version() + " has no SQL users: give --users-dir");
        }
        for (Path usersDir : usersDirs) {
            Files.deleteIfExists(usersDir.resolve(u + ".xml"));
        }
        copyRevoke(account).forEach(clickhouse::execute);
    }

    private String version() {
        return clickhouse.select("SELECT version() AS v").get(0).get("v").asText();
    }

    private List<String> biUsers() {
        List<String> out = new ArrayList<>();
        clickhouse.select("SELECT name FROM system.users WHERE name LIKE 'bi\\\\_%'").forEach(r -> out.add(r.get("name").asText()));
        return out;
    }
}
