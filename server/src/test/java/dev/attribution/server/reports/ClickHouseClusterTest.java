package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.attribution.api.auth.Roles;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSchema;
import dev.attribution.clickhouse.ClientV2Gateway;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scale-out of ClickHouse proven on real engines (issue 28, docs/scaling.md): {@code scripts/cluster up} starts
 * ZooKeeper and 2 shards x 2 replicas of clickhouse-server 18.16; the schema is applied to it ON CLUSTER
 * ({@code clickhouse.cluster}); a server process over the test's PostgreSQL streams the same changes into it with a CDC
 * pipeline of its own (its own slot) and serves reports from it. Data written through the HTTP API, as a partner
 * writes it, gives the same report bodies on one node (this test's server) and on the cluster; the account's rows sit
 * on one shard; replicas converge; with one replica of each shard killed (the first of the server's ClickHouse URLs
 * among them) reports and CDC keep working, and the killed replicas catch up once restarted.
 * Off in the normal suite (five more servers and a JVM take minutes on a loaded machine): {@code scripts/cluster-test}
 * runs it ({@code -Dcluster=true}), CI calls that script; each phase's time is printed as {@code cluster-test: …}.
 */
@MicronautTest(transactional = false)
@EnabledIfSystemProperty(named = "cluster", matches = "true")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClickHouseClusterTest extends ApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLUSTER = "attribution";
    private static final String DB = "attribution_cluster";
    private static final String SLOT = "cluster_test";
    private static final List<String> NODES = List.of("s1r1", "s1r2", "s2r1", "s2r2");
    private static final String RANGE = "startDate=2026-11-01&endDate=2026-11-18";
    /** Reports that read ClickHouse: each model and level family, ROAS, the CAC curve, paths, aggregation. */
    private static final String ADS = "&ids=" + enc("\"adA\",\"adB\",\"adC\"");
    private static final List<String> REPORTS = List.of(
            "/api/v1.0/attribution?attributionModel=last_click&" + RANGE + "&level=facebook_ad" + ADS
                    + "&fields=sales,total_revenue,cost,roas,leads,clicks,unique_customers",
            "/api/v1.0/attribution?attributionModel=last_click&" + RANGE + "&level=facebook_ad" + ADS + "&fields=sales,cost&timeGroupingOption=day",
            "/api/v1.0/attribution?attributionModel=first_click&" + RANGE + "&level=facebook_campaign&ids=" + enc("\"camp1\",\"camp2\"")
                    + "&fields=sales,revenue,cost",
            "/api/v1.0/attribution?attributionModel=scientific&" + RANGE + "&level=facebook_ad" + ADS + "&fields=sales,total_revenue",
            "/api/v1.0/attribution/ad-account?attributionModel=last_click&" + RANGE + "&fields=sales,total_revenue,cost,leads,roas,name&ids="
                    + enc("\"act1\""),
            "/api/v1.0/attribution/roas?id=adA&level=ad&" + RANGE,
            "/api/v1.0/attribution/marginal-cac-curve?id=adA&level=ad&" + RANGE + "&cacCeiling=100",
            "/api/v1.0/conversion-paths?conversionType=SALE&pageSize=250",
            "/api/v1.0/leads/aggregation?attribute=STAGE&groupsLimit=5");

    Path dir;
    int base;
    Path root;
    ServerProcesses servers;
    ServerProcesses.Server node;
    ClickHouseGateway cluster;
    String key;

    @BeforeAll
    void clusterAndItsServer() throws Exception {
        long t0 = System.nanoTime();
        root = repoRoot();
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "cluster-");
        base = freeBlock();
        script("up");
        phase("scripts/cluster up (ZooKeeper + 4 nodes)", t0);
        t0 = System.nanoTime();
        List<String> urls = NODES.stream().map(n -> "http://127.0.0.1:" + http(n)).toList();
        cluster = new ClientV2Gateway(urls, DB, "default", "", ClientV2Gateway.clusterSettings(CLUSTER));
        // applied here rather than by the process: 79 ON CLUSTER statements outlast its start-up wait under load
        new ClickHouseSchema(cluster, false, CLUSTER).migrate();
        phase("schema ON CLUSTER", t0);
        t0 = System.nanoTime();
        Map<String, String> props = new LinkedHashMap<>();
        props.put("clickhouse.url", String.join(",", urls));
        props.put("clickhouse.cluster", CLUSTER);
        props.put("clickhouse.database", DB);
        props.put("attribution.roles.cdc", "true");
        props.put("attribution.roles.command", "false");
        props.put("attribution.cdc.slot-name", SLOT);
        props.put("attribution.cdc.publication-name", SLOT);
        props.put("attribution.cdc.offset-table", "cdc_offsets_" + SLOT);
        servers = ServerProcesses.over("cluster", TestStack.get().jdbcUrl());
        node = servers.start("node", props, Duration.ofMinutes(5));
        phase("server process over the cluster up", t0);
        t0 = System.nanoTime();
        key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
        phase("fixture written through the API, one node caught up", t0);
    }

    private static void phase(String what, long startNanos) {
        System.out.printf("cluster-test: %s in %.1f s (load average %.1f)%n", what, (System.nanoTime() - startNanos) / 1e9,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    @AfterAll
    void stop() throws Exception {
        if (servers != null) {
            servers.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        dropSlot();
        if (dir != null) {
            script("discard");
        }
    }

    @Test
    @Order(1)
    void theSameReportsOnOneNodeAndOnTheClusterWithTheAccountOnOneShard() throws Exception {
        long t0 = System.nanoTime();
        awaitClusterCaughtUp();
        phase("cluster CDC caught up", t0);
        syncReplicas();
        assertSameReports();
        Map<String, Long> perShard = new LinkedHashMap<>();
        for (String n : List.of("s1r1", "s2r1")) {
            perShard.put(n, count(n, "SELECT count() AS n FROM " + DB + ".clicks_local WHERE account_id = '" + account() + "'"));
        }
        assertTrue(perShard.values().stream().filter(c -> c > 0).count() == 1 && perShard.values().stream().mapToLong(Long::longValue).sum() == 3,
                "the account's 3 clicks are all on one shard: " + perShard);
    }

    @Test
    @Order(2)
    void replicasConverge() throws Exception {
        awaitClusterCaughtUp();
        syncReplicas();
        assertReplicasEqual();
    }

    @Test
    @Order(3)
    void reportsAndCdcKeepWorkingWithAReplicaOfEachShardKilledWhichCatchesUpWhenRestarted() throws Exception {
        script("kill", "s1r1"); // the first of the process's ClickHouse URLs: its gateway moves to the next one
        script("kill", "s2r2");
        long t0 = System.nanoTime();
        writePhases(List.of(List.of(
                new WriteRequest(key, "POST", "/api/v1.0/clicks", ApiWrittenFixture.click("l3@x.test", "set1", "adB", "2026-11-17T09:00:00Z", "@set-1")),
                new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o5\",\"email\":\"l1@x.test\",\"date\":\"2026-11-12T12:00:00Z\","
                        + "\"items\":[{\"name\":\"Course five\",\"price\":25.00}]}"))));
        awaitClusterCaughtUp();
        phase("2 writes with s1r1 and s2r2 dead, in the cluster", t0);
        assertSameReports();
        t0 = System.nanoTime();
        script("up");
        syncReplicas();
        phase("s1r1 and s2r2 restarted and caught up", t0);
        assertReplicasEqual();
        assertSameReports();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Each report's result on one node and on the cluster: both 200 and equal (the request_id aside), read alike. */
    private void assertSameReports() throws Exception {
        List<String> differ = new ArrayList<>();
        for (String q : REPORTS) {
            Response one = get(key, q);
            var other = ServerProcesses.send(node, key, "GET", q, null);
            if (one.status() != 200 || other.statusCode() != 200) {
                differ.add(q + "\n  one node " + one.status() + ": " + one.raw() + "\n  cluster " + other.statusCode() + ": " + other.body());
            } else if (!JSON.readTree(one.raw()).get("result").equals(JSON.readTree(other.body()).get("result"))) {
                differ.add(q + "\n  one node: " + one.raw() + "\n  cluster:  " + other.body());
            }
        }
        assertTrue(differ.isEmpty(), differ.size() + " of " + REPORTS.size() + " reports differ:\n" + String.join("\n", differ));
    }

    /** Every replicated table: the same rows (count and a hash of every column) on both replicas of each shard. */
    private void assertReplicasEqual() {
        List<String> differ = new ArrayList<>();
        for (JsonNode t : cluster.select("SELECT name FROM system.tables WHERE database = '" + DB + "' AND engine LIKE 'Replicated%'")) {
            String table = DB + "." + t.get("name").asText();
            for (int s = 1; s <= 2; s++) {
                String sql = "SELECT toString(count()) AS n, toString(sum(cityHash64(toString(tuple(*))))) AS h FROM " + table;
                JsonNode a = on("s" + s + "r1", sql).get(0);
                JsonNode b = on("s" + s + "r2", sql).get(0);
                if (!a.equals(b)) {
                    differ.add(table + " shard " + s + ": " + a + " vs " + b);
                }
            }
        }
        assertTrue(differ.isEmpty(), "replicas differ: " + differ);
    }

    /** SYSTEM SYNC REPLICA on every node and table: returns once each replica has fetched what its shard holds. */
    private void syncReplicas() {
        for (String n : NODES) {
            for (JsonNode t : on(n, "SELECT name FROM system.tables WHERE database = '" + DB + "' AND engine LIKE 'Replicated%'")) {
                exec(n, "SYSTEM SYNC REPLICA " + DB + "." + t.get("name").asText());
            }
        }
    }

    /** Waits until the cluster pipeline's slot confirmed the WAL head read now: it acknowledges only what ClickHouse holds. */
    private void awaitClusterCaughtUp() throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(240));
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            long head;
            try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
                rs.next();
                head = rs.getLong(1);
            }
            while (true) {
                try (ResultSet rs = s.executeQuery("SELECT coalesce(confirmed_flush_lsn - '0/0'::pg_lsn, 0) FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")) {
                    if (rs.next() && rs.getLong(1) >= head) {
                        return;
                    }
                }
                if (Instant.now().isAfter(deadline)) {
                    throw new AssertionError("the cluster's CDC has not confirmed WAL position " + head + " in 240 s");
                }
                Thread.sleep(100);
            }
        }
    }

    private void dropSlot() throws Exception {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            for (int i = 0; i < 100; i++) {
                try (ResultSet rs = s.executeQuery("SELECT active FROM pg_replication_slots WHERE slot_name = '" + SLOT + "'")) {
                    if (!rs.next()) {
                        break;
                    }
                    if (!rs.getBoolean(1)) {
                        s.execute("SELECT pg_drop_replication_slot('" + SLOT + "')");
                        break;
                    }
                }
                Thread.sleep(100);
            }
            s.execute("DROP PUBLICATION IF EXISTS " + SLOT);
            s.execute("DROP TABLE IF EXISTS cdc_offsets_" + SLOT);
        }
    }

    private String account() throws Exception {
        try (Connection c = TestStack.get().connect();
             var ps = c.prepareStatement("SELECT account_id FROM api_keys WHERE key_hash = ?")) {
            ps.setString(1, dev.attribution.api.auth.ApiKeys.hash(key));
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), "the key's account");
                return rs.getString(1);
            }
        }
    }

    private List<JsonNode> on(String n, String sql) {
        try (ClientV2Gateway g = new ClientV2Gateway("http://127.0.0.1:" + http(n), DB, "default", "")) {
            return g.select(sql);
        }
    }

    private long count(String n, String sql) {
        return on(n, sql).get(0).get("n").asLong();
    }

    private void exec(String n, String sql) {
        try (ClientV2Gateway g = new ClientV2Gateway("http://127.0.0.1:" + http(n), DB, "default", "")) {
            g.execute(sql);
        }
    }

    private int http(String n) {
        return base + NODES.indexOf(n) + 1;
    }

    private void script(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("scripts/cluster").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CLUSTER_DIR", dir.toString());
        pb.environment().put("CLUSTER_PORT", Integer.toString(base));
        pb.environment().put("CLUSTER_NAME", CLUSTER);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), "scripts/cluster " + String.join(" ", args) + ":\n" + out);
    }

    /** A base port whose 25 successors (ZooKeeper, four nodes' HTTP, native and interserver ports) are free. */
    private static int freeBlock() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int candidate = ThreadLocalRandom.current().nextInt(20000, 30000);
            boolean free = true;
            for (int p = candidate; p < candidate + 25 && free; p++) {
                try (ServerSocket s = new ServerSocket(p, 1, java.net.InetAddress.getLoopbackAddress())) {
                    s.setReuseAddress(true);
                } catch (Exception busy) {
                    free = false;
                }
            }
            if (free) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free block of 25 ports");
    }

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/cluster"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("scripts/cluster not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }
}
