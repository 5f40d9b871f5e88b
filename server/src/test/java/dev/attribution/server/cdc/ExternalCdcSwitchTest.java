package dev.attribution.server.cdc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.reports.ApiWrittenFixture;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.testing.TestStack;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CDC outside the process (issue 28 point 4, docs/scaling.md "CDC outside the process"): a server process streams with
 * the embedded bridge (its own slot, publication, offset table and ClickHouse database); data is written through the
 * HTTP API; the process is stopped and a node with the bridge off and {@code POST /cdc/ingest} on takes its place while
 * {@code scripts/cdc-server up} starts a real Debezium Server (debezium-server-dist from Maven Central) on the same slot
 * and offsets; more writes (a re-imported spend file, an order replaced, a click made organic, a lead erased); then
 * {@code scripts/cdc-server down} and the embedded bridge again. After each phase the account's {@code *_current} views
 * equal PostgreSQL (counts and money sums), no row version reached ClickHouse twice, and Debezium Server took no
 * snapshot (no resync: it posted no version-0 row). Prints each phase's time and, with {@code -Ddbz.bulk=N}, the rows/s
 * of both engines on a bulk change of N rows ("dbz-test: …", with the load average). Off in the normal suite: {@code scripts/cluster-test} runs it.
 */
@MicronautTest(transactional = false)
@EnabledIfSystemProperty(named = "cluster", matches = "true")
// this JVM's own sweep would record the lead erased below as swept (cdc_erasures is shared) before the ingest node's
@Property(name = "attribution.cdc.erasure-sweep-interval", value = "1h")
class ExternalCdcSwitchTest extends ApiTest {

    private static final String SLOT = "dbz_switch";
    private static final String OFFSETS = "cdc_offsets_" + SLOT;
    private static final String CH = "attribution_dbz";
    /** Rows of the bulk change timed under each engine ({@code -Ddbz.bulk=20000}); 0 (default) skips it: it costs minutes under load. */
    private static final int BULK = Integer.getInteger("dbz.bulk", 0);

    private final String secret = "whsec_" + Base64.getEncoder().encodeToString(new SecureRandom().generateSeed(32));
    private ServerProcesses servers;
    private Path run;
    private ServerProcesses.Server ingest;
    private String key;
    private String acc;

    @BeforeAll
    void setUp() throws Exception {
        run = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "cdc-server-");
        servers = ServerProcesses.over("dbz", TestStack.get().jdbcUrl());
        key = newUnthrottledAccount("UTC", Roles.ALL);
        acc = get(key, "/api/v1.0/user-info").body().get("result").get("accountId").asText();
    }

    @AfterAll
    void tearDown() throws Exception {
        try {
            if (ingest != null) {
                script("down");
            }
        } finally {
            if (servers != null) {
                servers.close();
            }
            dropSlot();
            TestStack.get().clickhouse("DROP DATABASE IF EXISTS " + CH);
        }
    }

    @Test
    void embeddedToDebeziumServerAndBackWithoutResync() throws Exception {
        long t0 = System.nanoTime();
        ServerProcesses.Server embedded = servers.start("embedded", node(true), Duration.ofMinutes(5));
        phase("server process with the embedded bridge up", t0);
        t0 = System.nanoTime();
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
        awaitSlot();
        phase("fixture written through the API, embedded bridge caught up", t0);
        assertClickHouseEqualsPostgres("embedded");
        bulk("embedded", "e");
        stop(embedded);

        t0 = System.nanoTime();
        ingest = servers.start("ingest", node(false), Duration.ofMinutes(5));
        String up = script("up");
        phase("ingest node up and scripts/cdc-server up (Debezium Server holds the slot)", t0);
        assertTrue(up.contains("handed 1 offset key(s) over from embedded"), up);
        t0 = System.nanoTime();
        String l3 = leadId("l3@x.test");
        importSpend(key, ApiWrittenFixture.SPEND.replace("10.00", "12.50"));
        writePhases(List.of(List.of(
                new WriteRequest(key, "PUT", "/api/v1.0/orders/o2", "{\"items\":[{\"name\":\"Course two b\",\"price\":55.00,\"isRebill\":true}]}"),
                new WriteRequest(key, "DELETE", "/api/v1.0/leads?email=l3@x.test", null))));
        sql("UPDATE clicks SET is_organic = true WHERE account_id = '" + acc + "' AND adspend_ad_id = 'adB'");
        awaitSlot();
        phase("writes through Debezium Server caught up", t0);
        assertClickHouseEqualsPostgres("Debezium Server");
        awaitErased(l3);
        JsonNode health = ingestHealth();
        assertEquals(0, health.get("snapshotRows").asLong(), "Debezium Server took a snapshot (a resync): " + health);
        assertTrue(health.get("changes").asLong() > 0, health.toString());
        bulk("Debezium Server", "x");

        t0 = System.nanoTime();
        String down = script("down");
        assertTrue(down.contains("handed 1 offset key(s) over from server"), down);
        stop(ingest);
        ingest = null;
        servers.start("embedded-again", node(true), Duration.ofMinutes(5));
        phase("scripts/cdc-server down, embedded bridge again", t0);
        writePhases(List.of(List.of(new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"l4@x.test\",\"stage\":\"Hot\"}"))));
        writePhases(List.of(List.of(new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o5\",\"email\":\"l4@x.test\","
                + "\"date\":\"2026-11-18T12:00:00Z\",\"items\":[{\"name\":\"Course five\",\"price\":70.00}]}"))));
        awaitSlot();
        assertClickHouseEqualsPostgres("embedded again");
        // the bridge is past Debezium Server's last position now: a repeated handover must not move it back
        assertTrue(script("handover", "server", "embedded").contains("handed 0 offset key(s)"));
    }

    /** The settings of a server process: bridge on ({@code cdc}) or off with the ingest endpoint on. */
    private Map<String, String> node(boolean cdc) {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("clickhouse.database", CH);
        p.put("attribution.roles.command", "false");
        p.put("attribution.cdc.slot-name", SLOT);
        p.put("attribution.cdc.publication-name", SLOT);
        p.put("attribution.cdc.offset-table", OFFSETS);
        p.put("attribution.roles.cdc", Boolean.toString(cdc));
        if (!cdc) {
            p.put("attribution.cdc.ingest.secret", secret);
        }
        return p;
    }

    /** Each {@code *_current} view of the account holds what PostgreSQL holds: rows and money; no version twice. */
    private void assertClickHouseEqualsPostgres(String phase) throws Exception {
        String a = "account_id = '" + acc + "'";
        Map<String, String[]> checks = new LinkedHashMap<>();
        checks.put("leads", new String[] {"count(*) FROM leads WHERE " + a + " AND NOT erased", "count() FROM leads_current WHERE " + a});
        checks.put("lead_tags", new String[] {"count(*) FROM lead_tags WHERE " + a, "count() FROM lead_tags_current WHERE " + a});
        checks.put("clicks", new String[] {"count(*) || '/' || count(*) FILTER (WHERE is_organic) FROM clicks WHERE " + a,
                "concat(toString(count()), '/', toString(countIf(is_organic = 1))) FROM clicks_current WHERE " + a});
        checks.put("sales", new String[] {"count(*) || '/' || sum(price) || '/' || sum(refunded_amount) FROM sales WHERE " + a + " AND NOT deleted",
                "concat(toString(count()), '/', toString(sum(sale_price)), '/', toString(sum(sale_refunded_amount))) FROM sales_current WHERE " + a});
        checks.put("calls", new String[] {"count(*) FROM calls WHERE " + a + " AND NOT deleted", "count() FROM calls_current WHERE " + a});
        checks.put("ad_spend_daily", new String[] {"count(*) || '/' || sum(spend) FROM ad_spend_daily WHERE " + a,
                "concat(toString(count()), '/', toString(sum(spend))) FROM ad_spend_daily_current WHERE " + a});
        checks.put("conversion_touches", new String[] {"count(*) FROM conversion_touches WHERE " + a,
                "count() FROM conversion_touches_current WHERE " + a});
        checks.put("source_links", new String[] {"count(*) FROM source_links WHERE " + a, "count() FROM source_links_current WHERE " + a});
        checks.put("sale_credits", new String[] {"count(*) || '/' || sum(price) FROM sale_credits WHERE " + a,
                "concat(toString(count()), '/', toString(sum(sale_price))) FROM sale_credits_current WHERE " + a});
        for (Map.Entry<String, String[]> c : checks.entrySet()) {
            String pg = normal(pgValue("SELECT " + c.getValue()[0]));
            String ch = normal(TestStack.get().clickhouse("SELECT " + c.getValue()[1].replace("FROM ", "FROM " + CH + ".")).trim());
            assertEquals(pg, ch, phase + ": " + c.getKey() + " in ClickHouse (" + CH + ") against PostgreSQL");
        }
        // a key seen twice with the same version is a change written twice (a replay); rows of one multi-row insert
        // (COPY) share a WAL position, so the version alone is not unique
        Map<String, String> keys = Map.of("leads", "id", "lead_tags", "lead_id, tag", "clicks", "id", "sales", "lead_id, id", "calls", "id",
                "ad_spend_daily", "platform, ad_id, day", "conversion_touches", "conversion_type, conversion_id");
        for (Map.Entry<String, String> t : keys.entrySet()) {
            String twice = TestStack.get().clickhouse("SELECT count() FROM (SELECT " + t.getValue() + ", _version, count() n FROM " + CH + "."
                    + t.getKey() + " WHERE " + a + " GROUP BY " + t.getValue() + ", _version HAVING n > 1)").trim();
            assertEquals("0", twice, phase + ": changes of " + t.getKey() + " written twice");
        }
    }

    /** Sums as plain numbers: 12.50 and 12.5 are the same money. */
    private static String normal(String value) {
        StringBuilder out = new StringBuilder();
        for (String part : value.split("/", -1)) {
            out.append(out.length() == 0 ? "" : "/").append(part.isEmpty() || part.equals("\\N") ? "0"
                    : part.matches("-?[0-9.]+") ? new BigDecimal(part).stripTrailingZeros().toPlainString() : part);
        }
        return out.toString();
    }

    /** {@link #BULK} tags on one lead in one transaction: the rows/s this engine applies them at. */
    private void bulk(String engine, String prefix) throws Exception {
        if (BULK == 0) {
            return;
        }
        String lead = leadId("l1@x.test");
        awaitSlot();
        long t0 = System.nanoTime();
        sql("INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at) SELECT '" + acc + "', '" + lead + "', '"
                + prefix + "-' || g, now() FROM generate_series(1, " + BULK + ") g");
        awaitSlot();
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("dbz-test: %s applied %d inserted rows in %.1f s: %.0f rows/s (load average %.1f)%n", engine, BULK, s,
                BULK / s, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        assertEquals(pgValue("SELECT count(*) FROM lead_tags WHERE account_id = '" + acc + "'"),
                TestStack.get().clickhouse("SELECT count() FROM " + CH + ".lead_tags_current WHERE account_id = '" + acc + "'").trim());
    }

    /** The erased lead's contact left every version in ClickHouse: the ingest node's erasure sweep ran. */
    private void awaitErased(String leadId) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
        while (!"1".equals(pgValue("SELECT count(*) FROM cdc_erasures WHERE account_id = '" + acc + "' AND lead_id = '" + leadId + "'"))) {
            assertTrue(Instant.now().isBefore(deadline), "the ingest node did not sweep the erased lead in 120 s");
            Thread.sleep(200);
        }
        assertEquals("0", TestStack.get().clickhouse("SELECT count() FROM " + CH + ".leads WHERE account_id = '" + acc
                + "' AND email = 'l3@x.test'").trim());
    }

    private JsonNode ingestHealth() throws Exception {
        String body = ServerProcesses.send(ingest, null, "GET", "/health", null).body();
        JsonNode found = JsonBody.mapper().readTree(body).findValue("cdcIngest");
        assertTrue(found != null, "no cdcIngest in /health: " + body);
        return found.has("details") ? found.get("details") : found;
    }

    /** Waits until the slot's confirmed position passes the WAL head read now: everything is in ClickHouse. */
    private void awaitSlot() throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(240));
        long head = Long.parseLong(pgValue("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn"));
        while (Long.parseLong(pgValue("SELECT coalesce((SELECT confirmed_flush_lsn - '0/0'::pg_lsn FROM pg_replication_slots "
                + "WHERE slot_name = '" + SLOT + "'), 0)")) < head) {
            assertTrue(Instant.now().isBefore(deadline), "slot " + SLOT + " has not confirmed WAL position " + head + " in 240 s");
            Thread.sleep(50);
        }
    }

    private String leadId(String email) throws Exception {
        return pgValue("SELECT id FROM leads WHERE account_id = '" + acc + "' AND email = '" + email + "'");
    }

    private static void stop(ServerProcesses.Server server) throws Exception {
        server.process().destroy(); // SIGTERM: the bridge commits what it wrote
        if (!server.process().waitFor(60, TimeUnit.SECONDS)) {
            server.kill();
        }
    }

    private static void phase(String what, long startNanos) {
        System.out.printf("dbz-test: %s in %.1f s (load average %.1f)%n", what, (System.nanoTime() - startNanos) / 1e9,
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }

    private static String pgValue(String query) throws Exception {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            assertTrue(rs.next(), query);
            String v = rs.getString(1);
            return v == null ? "" : v;
        }
    }

    private static void sql(String statement) throws Exception {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    private String script(String... command) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("scripts/cdc-server"))) {
            root = root.getParent();
        }
        Map<String, String> p = TestStack.get().properties();
        ProcessBuilder pb = new ProcessBuilder(java.util.stream.Stream.concat(
                java.util.stream.Stream.of("bash", root.resolve("scripts/cdc-server").toString()), java.util.Arrays.stream(command)).toList())
                .redirectErrorStream(true);
        Map<String, String> env = pb.environment();
        env.put("POSTGRES_URL", TestStack.get().jdbcUrl());
        env.put("POSTGRES_USER", p.get("datasources.default.username"));
        env.put("POSTGRES_PASSWORD", p.get("datasources.default.password"));
        env.put("ATTRIBUTION_CDC_SLOT_NAME", SLOT);
        env.put("ATTRIBUTION_CDC_PUBLICATION_NAME", SLOT);
        env.put("ATTRIBUTION_CDC_OFFSET_TABLE", OFFSETS);
        env.put("ATTRIBUTION_CDC_INGEST_SECRET", secret);
        env.put("ATTRIBUTION_CDC_INGEST_URL", (ingest == null ? "http://127.0.0.1:1" : ingest.url()) + "/cdc/ingest");
        env.put("CDC_SERVER_DIR", run.toString());
        env.put("CDC_SERVER_HTTP_PORT", Integer.toString(TestStack.freePort()));
        Process process = pb.start();
        String out = new String(process.getInputStream().readAllBytes());
        int code = process.waitFor();
        System.out.print(out.lines().map(l -> "dbz-test: " + l + "\n").reduce("", String::concat));
        assertEquals(0, code, "scripts/cdc-server " + String.join(" ", command) + ":\n" + out + tail(run.resolve("debezium-server.log")));
        return out;
    }

    private static String tail(Path log) throws Exception {
        if (!Files.exists(log)) {
            return "";
        }
        List<String> lines = Files.readAllLines(log);
        return String.join("\n", new ArrayList<>(lines.subList(Math.max(0, lines.size() - 60), lines.size())));
    }

    private void dropSlot() throws Exception {
        CdcTesting.dropSlotAndPublication(SLOT);
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS " + OFFSETS);
        }
    }
}
