package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.HealthSampler;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Several API nodes over one PostgreSQL and one ClickHouse (issue 28 point 3, docs/scaling.md "Several API nodes"):
 * two server processes with every role on, started from the test's class path like {@link ServerProcesses} does, over
 * a PostgreSQL database of the test's own and a ClickHouse database of its own on the suite's engines.
 * <ul>
 *   <li>writes sent to both nodes alternately (a lead created on one node, updated on the other, and so on) are each
 *       PROCESSED once, in per-lead order, and both nodes apply writes (each node logs the request id of every write
 *       it applied at DEBUG: the two sets are disjoint and together are every write);</li>
 *   <li>60 simultaneous requests of one account at 30 per second split over both nodes: 30 to 40 accepted (its
 *       per-minute budget of 40 bounds a second-window refill during the burst; per-node limits would let all 60
 *       through);</li>
 *   <li>exactly one node holds the CDC role, the other stands by with {@code /health} UP; {@code kill -9} of the
 *       active node while writes it accepted wait (the {@code leads} table locked by the test): the survivor applies
 *       them all exactly once, takes the CDC role over, and ClickHouse ends equal to PostgreSQL; the survivor's
 *       {@code /health}, sampled throughout, never leaves 200.</li>
 * </ul>
 * Off in the normal suite (two more JVMs take minutes on a loaded machine): {@code scripts/cluster-test} runs it
 * ({@code -Dcluster=true}); each phase's time is printed as {@code nodes-test: …}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@EnabledIfSystemProperty(named = "cluster", matches = "true")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ApiNodesTest {

    private static final Duration START = Duration.ofMinutes(3);

    ServerProcesses servers;
    String chDatabase;
    String slot;
    final List<Server> nodes = new ArrayList<>();
    final List<String> names = List.of("one", "two");
    String key;
    HealthSampler sampler;

    @BeforeAll
    void twoNodes() throws Exception {
        long t0 = System.nanoTime();
        servers = new ServerProcesses("nodes");
        chDatabase = TestStack.get().clickhouseDatabase() + "_nodes";
        slot = chDatabase;
        Map<String, String> props = new LinkedHashMap<>();
        props.put("clickhouse.database", chDatabase);
        props.put("attribution.roles.cdc", "true");
        props.put("attribution.cdc.slot-name", slot);
        props.put("attribution.cdc.publication-name", slot);
        props.put("attribution.rate-limits.store", "postgres");
        // the server's own log configuration (JSON lines with the MDC), not the tests': with WORKER_LOG_LEVEL=DEBUG the
        // worker logs a line per applied write under its request id
        props.put("logback.configurationFile", java.nio.file.Path.of("target", "classes", "logback.xml").toAbsolutePath().toString());
        props.put("WORKER_LOG_LEVEL", "DEBUG");
        props.put("ACCESS_LOG_LEVEL", "WARN");
        for (String name : names) { // one after the other: Flyway and the ClickHouse schema are applied by the first
            nodes.add(servers.start(name, props, START));
        }
        key = servers.createAccount("acc_nodes");
        sampler = new HealthSampler(nodes);
        phase("two server processes up", t0);
    }

    @AfterAll
    void stop() throws Exception {
        if (sampler != null) {
            sampler.close();
        }
        if (servers == null) {
            return;
        }
        servers.close();
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            Instant deadline = Instant.now().plusSeconds(60);
            while (Instant.now().isBefore(deadline)) {
                try (var rs = s.executeQuery("SELECT count(*) FROM pg_replication_slots WHERE slot_name = '" + slot + "' AND active")) {
                    rs.next();
                    if (rs.getInt(1) == 0) {
                        break;
                    }
                }
                Thread.sleep(200);
            }
            s.execute("SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = '" + slot + "'");
        }
        TestStack.get().clickhouse("DROP DATABASE IF EXISTS " + chDatabase);
    }

    @Test
    @Order(1)
    void exactlyOneNodeStreamsTheOtherStandsByWithHealthUp() throws Exception {
        long t0 = System.nanoTime();
        Map<String, String> roles = await("one active (STREAMING) node and one standby", () -> {
            Map<String, String> r = new LinkedHashMap<>();
            for (int i = 0; i < nodes.size(); i++) {
                JsonNode cdc = cdcHealth(nodes.get(i));
                r.put(names.get(i), cdc.path("role").asText() + "/" + cdc.path("state").asText());
            }
            return r.values().containsAll(List.of("active/STREAMING", "standby/STANDBY")) ? r : null;
        });
        assertEquals(1, roleLocks(), "one CDC role lock in PostgreSQL: " + roles);
        phase("roles settled " + roles, t0);
    }

    @Test
    @Order(2)
    void writesAlternatedOverBothNodesAreAppliedOnceInOrderByBothNodes() throws Exception {
        long t0 = System.nanoTime();
        int clients = 4;
        int leadsPerClient = 25;
        int versions = 4;
        List<String> accepted = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        for (int c = 0; c < clients; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                try {
                    // version v of every lead of this client, then v + 1: v on node v % 2 (created on one, updated on two, ...)
                    for (int v = 0; v < versions; v++) {
                        for (int l = 0; l < leadsPerClient; l++) {
                            accepted.add(accept(nodes.get(v % 2), lead("alt" + client + "-" + l, "v" + v)));
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            threads.add(t);
            t.start();
        }
        for (Thread t : threads) {
            t.join(120_000);
        }
        assertEquals(List.of(), failures);
        assertEquals(clients * leadsPerClient * versions, accepted.size());
        awaitTerminal(accepted);
        assertExactlyOnce(accepted);
        assertEquals(clients * leadsPerClient, servers.count("SELECT count(*) FROM leads WHERE email LIKE 'alt%'"
                + " AND first_name = 'v" + (versions - 1) + "' AND ? IS NOT NULL", List.of("x")), "the last version of each lead won");
        assertEquals(clients * leadsPerClient, servers.count("SELECT count(*) FROM leads WHERE email LIKE 'alt%' AND ? IS NOT NULL",
                List.of("x")), "one lead per email");

        Set<String> byOne = applied("one");
        Set<String> byTwo = applied("two");
        Set<String> both = new HashSet<>(byOne);
        both.retainAll(byTwo);
        Set<String> union = new HashSet<>(byOne);
        union.addAll(byTwo);
        union.retainAll(accepted);
        assertTrue(byOne.stream().anyMatch(accepted::contains) && byTwo.stream().anyMatch(accepted::contains),
                "both nodes applied writes (lanes shared): one " + byOne.size() + ", two " + byTwo.size());
        assertEquals(Set.of(), both, "no write applied by both nodes");
        assertEquals(new HashSet<>(accepted), union, "every write applied by one node or the other");
        awaitClickHouseEqualsPostgres();
        phase("400 alternated writes applied (one " + byOne.size() + ", two " + byTwo.size() + "), ClickHouse equal", t0);
    }

    @Test
    @Order(3)
    void sixtySimultaneousRequestsOverBothNodesShareOneBudgetOfThirtyPerSecond() throws Exception {
        long t0 = System.nanoTime();
        String limited = servers.createAccount("acc_nodes_limited");
        try (Connection c = servers.db(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE accounts SET rate_per_second = 30, rate_per_minute = 40 WHERE id = 'acc_nodes_limited'");
        }
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger limitedCount = new AtomicInteger();
        List<Integer> other = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            Server node = nodes.get(i % 2);
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    int status = ServerProcesses.send(node, limited, "GET", "/api/v1.0/leads?pageSize=1", null).statusCode();
                    (status == 200 ? ok : status == 429 ? limitedCount : new AtomicInteger()).incrementAndGet();
                    if (status != 200 && status != 429) {
                        other.add(status);
                    }
                } catch (Exception e) {
                    other.add(-1);
                }
            });
            threads.add(t);
            t.start();
        }
        go.countDown();
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertEquals(List.of(), other, "every request answered 200 or 429");
        assertTrue(ok.get() >= 30 && ok.get() <= 40, "one budget of 30/s (40/min) over both nodes: " + ok.get()
                + " of 60 accepted (per-node budgets would accept 60)");
        phase("rate limit burst: " + ok.get() + " of 60 accepted", t0);
    }

    @Test
    @Order(4)
    void killingTheActiveNodeHandsItsPendingWritesAndTheCdcRoleToTheOther() throws Exception {
        long t0 = System.nanoTime();
        int active = cdcHealth(nodes.get(0)).path("role").asText().equals("active") ? 0 : 1;
        Server victim = nodes.get(active);
        Server survivor = nodes.get(1 - active);
        String survivorName = names.get(1 - active);
        List<String> onVictim = new ArrayList<>();
        List<String> accepted = new ArrayList<>();
        try (Connection lock = servers.db()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE leads IN EXCLUSIVE MODE");
            }
            for (int v = 0; v < 3; v++) { // version v of 30 leads on node v % 2 of the pair (victim, survivor)
                Server to = v % 2 == 0 ? victim : survivor;
                for (int l = 0; l < 30; l++) {
                    String id = accept(to, lead("kill" + l, "k" + v));
                    accepted.add(id);
                    if (to == victim) {
                        onVictim.add(id);
                    }
                }
            }
            assertEquals(0, servers.count("SELECT count(*) FROM write_requests WHERE status <> 'PENDING' AND id = ANY(?)", accepted),
                    "nothing applied while the leads table is locked");
            sampler.only(survivor);
            victim.kill();
            lock.rollback();
        }
        long killedAt = System.nanoTime();
        awaitTerminal(accepted);
        assertExactlyOnce(accepted);
        assertEquals(30, servers.count("SELECT count(*) FROM leads WHERE email LIKE 'kill%' AND first_name = 'k2' AND ? IS NOT NULL",
                List.of("x")), "per-lead order kept across the kill");
        assertTrue(applied(survivorName).containsAll(onVictim), "the survivor applied the dead node's pending writes");
        phase("writes of the killed node applied by the survivor", killedAt);

        // written after the kill: they reach ClickHouse only if the survivor took the CDC role over
        List<String> after = new ArrayList<>();
        for (int l = 0; l < 20; l++) {
            after.add(accept(survivor, lead("after" + l, "a")));
        }
        awaitTerminal(after);
        await("the survivor streams", () -> cdcHealth(survivor).path("state").asText().equals("STREAMING") ? true : null);
        awaitClickHouseEqualsPostgres();
        phase("CDC taken over, ClickHouse equal to PostgreSQL", killedAt);
        assertEquals("active", cdcHealth(survivor).path("role").asText());
        assertEquals(1, roleLocks());
        sampler.close();
        assertTrue(sampler.samples(survivor) > 10, "health sampled throughout: " + sampler.samples(survivor));
        assertEquals(List.of(), sampler.failures(survivor), "the survivor's /health stayed 200 UP");
        phase("kill phase", t0);
    }

    // --- helpers

    private static String lead(String name, String firstName) {
        return "{\"email\":\"" + name + "@example.com\",\"firstName\":\"" + firstName + "\"}";
    }

    private String accept(Server server, String json) throws Exception {
        HttpResponse<String> r = ServerProcesses.send(server, key, "POST", "/api/v1.0/leads", json);
        if (r.statusCode() != 200) {
            throw new AssertionError(r.statusCode() + " " + r.body());
        }
        return JsonBody.mapper().readTree(r.body()).get("request_id").asText();
    }

    private void assertExactlyOnce(List<String> accepted) throws Exception {
        assertEquals(accepted.size(), servers.count("SELECT count(*) FROM write_requests WHERE status = 'PROCESSED' AND id = ANY(?)",
                accepted), "every accepted write PROCESSED");
        assertEquals(accepted.size(), servers.count("SELECT count(DISTINCT id) FROM write_requests WHERE id = ANY(?)", accepted));
    }

    private void awaitTerminal(List<String> ids) throws Exception {
        await("writes applied", () -> servers.count("SELECT count(*) FROM write_requests WHERE status = 'PENDING' AND id = ANY(?)", ids) == 0
                ? true : null);
    }

    /** ClickHouse's current leads of the account equal PostgreSQL's (email and first name of each). */
    private void awaitClickHouseEqualsPostgres() throws Exception {
        String expected = String.join("\n", rows());
        await("ClickHouse equal to PostgreSQL", () -> String.join("\n", TestStack.get().clickhouse(
                "SELECT email, first_name FROM " + chDatabase + ".leads_current WHERE account_id = 'acc_nodes' ORDER BY email FORMAT TSV")
                .strip().split("\n")).equals(expected) ? true : null);
    }

    private List<String> rows() throws Exception {
        List<String> rows = new ArrayList<>();
        try (Connection c = servers.db(); Statement s = c.createStatement();
             var rs = s.executeQuery("SELECT email, coalesce(first_name, '') FROM leads WHERE account_id = 'acc_nodes' ORDER BY email COLLATE \"C\"")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "\t" + rs.getString(2));
            }
        }
        return rows;
    }

    private int roleLocks() throws Exception {
        return servers.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 17220 AND granted"
                + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
    }

    /** Request ids of the writes node {@code name} logged as applied (its log, written at DEBUG by the worker). */
    private Set<String> applied(String name) throws Exception {
        Set<String> ids = new HashSet<>();
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("target", "nodes-" + name + ".log"))) {
            if (line.startsWith("{") && line.contains("write PROCESSED")) {
                JsonNode json = JsonBody.mapper().readTree(line);
                if (json.path("message").asText().startsWith("write PROCESSED")) {
                    ids.add(json.path("request_id").asText());
                }
            }
        }
        return ids;
    }

    static JsonNode cdcHealth(Server node) throws Exception {
        HttpResponse<String> r = ServerProcesses.send(node, null, "GET", "/health", null);
        return JsonBody.mapper().readTree(r.body()).path("details").path("cdc").path("details");
    }

    private static <T> T await(String what, Probe<T> until) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (true) {
            T result;
            try {
                result = until.get();
            } catch (Exception e) {
                result = null;
            }
            if (result != null) {
                return result;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(what + ": not within 2 minutes");
            }
            Thread.sleep(200);
        }
    }

    /** A condition polled by {@link #await}: null while not met. */
    private interface Probe<T> {
        T get() throws Exception;
    }

    private static void phase(String what, long startNanos) {
        System.out.printf("nodes-test: %s in %.1f s (load average %.1f)%n", what, (System.nanoTime() - startNanos) / 1e9,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
}
