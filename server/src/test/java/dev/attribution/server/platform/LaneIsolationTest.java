package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.WriteRequestLog;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 point 1: one account's long write delays no other key's writes. Account A's big order (200 items, stored
 * above the server's {@code attribution.worker.batch-bytes}) is kept in its apply for as long as the test wants (the
 * test holds the advisory lock of one of its products, as another order naming the same new product would). Meanwhile
 * account B writes 64 leads over HTTP: every one is applied while the order waits, also those of B whose key hashes to
 * the order's former lane (of 16; the test checks that B's keys cover all 16, so with lanes it failed). Then, in one
 * commit, 32 more leads of B, a second big order of A (a copy of the first under another id) and 32 more leads: none of
 * them waits for the order that would have shared its transaction (a big write is applied alone). Once the lock is let
 * go both orders and all of B's writes are applied, each once.
 *
 * <p>A server process over a database of its own: no other test's worker takes these writes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LaneIsolationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int ITEMS = 200;
    ServerProcesses servers;
    Server server;

    @BeforeAll
    void ownDatabase() throws Exception {
        servers = new ServerProcesses("lanes");
        server = servers.start("a", Map.of("attribution.worker.batch-bytes", "512"), Duration.ofSeconds(180)); // 60 s was not always enough at load 30
    }

    @AfterAll
    void killLeftovers() {
        servers.close();
    }

    @Test
    void aBigWriteOfOneAccountDelaysNoWriteOfAnother() throws Exception {
        String keyA = servers.createAccount("acc_lanes_a");
        String keyB = servers.createAccount("acc_lanes_b");
        try (Connection hold = servers.db()) {
            hold.setAutoCommit(false);
            try (PreparedStatement ps = hold.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('product:' || ? || ':' || ?))")) {
                ps.setString(1, "acc_lanes_a");
                ps.setString(2, ProductCatalog.deriveTag("Held Widget"));
                ps.execute();
            }
            String items = IntStream.range(0, ITEMS).mapToObj(i -> "{\"name\":\"" + (i == 0 ? "Held Widget" : "Widget " + i % 7)
                    + "\",\"price\":1.25}").collect(Collectors.joining(","));
            String held = requestId(ServerProcesses.send(server, keyA, "POST", "/api/v1.0/orders",
                    "{\"orderId\":\"held-order\",\"email\":\"held@lanes.test\",\"items\":[" + items + "]}"));
            assertTrue(servers.count("SELECT pg_column_size(payload) FROM write_requests WHERE id = '" + held + "'") > 512,
                    "the order is a big write for this server");
            int heldKey = servers.count("SELECT lane FROM write_requests WHERE id = '" + held + "'");
            // a worker holds the order's key (advisory lock keys 0x5752, key) and waits for the product's lock
            awaitTrue(() -> servers.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 22354 "
                    + "AND objid::text::bigint = (" + heldKey + "::bigint & 4294967295) AND objsubid = 2 AND granted") > 0,
                    "the order's apply has begun", 60);

            List<String> ofB = new ArrayList<>();
            Set<Integer> formerLanes = new HashSet<>();
            for (int i = 0; i < 64; i++) {
                String email = "b" + i + "@lanes.test";
                formerLanes.add(Math.floorMod(("acc_lanes_b" + '\u0000' + email).hashCode(), 16));
                ofB.add(requestId(ServerProcesses.send(server, keyB, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}")));
            }
            assertEquals(16, formerLanes.size(), "B's writes cover every former lane, the order's too");
            awaitTrue(() -> pendingOf(ofB) == 0, "B's writes applied while the order waits", 60);
            assertTrue(pending(held), "the order waits for the held lock");

            List<String> around = insertAroundACopy(held);
            String copy = around.remove(32);
            awaitTrue(() -> pendingOf(around) == 0, "B's writes accepted with a second big order applied while it waits", 60);
            assertTrue(pending(held) && pending(copy), "both orders wait for the held lock");
            ofB.addAll(around);
            assertEquals(128, servers.count("SELECT count(*) FROM write_requests w JOIN leads l ON l.account_id = w.account_id "
                    + "AND l.email = w.payload->>'email' WHERE w.id = ANY(?) AND w.status = 'PROCESSED'", ofB), "one lead per applied write");
            hold.commit();

            awaitTrue(() -> !pending(held) && !pending(copy), "both orders applied once the lock is let go", 120);
            assertEquals(ITEMS, servers.count("SELECT count(*) FROM sales WHERE account_id = 'acc_lanes_a' AND order_id = 'held-order'"));
            assertEquals(ITEMS, servers.count("SELECT count(*) FROM sales WHERE account_id = 'acc_lanes_a' AND order_id = 'held-copy'"));
            assertEquals(128, servers.count("SELECT count(*) FROM leads WHERE account_id = 'acc_lanes_b'"));
        }
    }

    /**
     * In one commit, so that one worker's scan finds them together: 32 leads of B, a copy of order {@code held} under
     * the id {@code held-copy}, 32 more leads of B; their request ids in that order.
     */
    private List<String> insertAroundACopy(String held) throws Exception {
        List<String> ids = new ArrayList<>();
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < 65; i++) {
            String id = "req_lanes_" + i;
            ids.add(id);
            if (i == 32) {
                values.append("('").append(id).append("', 'acc_lanes_a', 'CREATE_ORDER', ")
                        .append(WriteRequestLog.orderingKey("acc_lanes_a", "order:held-copy"))
                        .append(", (SELECT jsonb_set(payload, '{orderId}', '\"held-copy\"') FROM write_requests WHERE id = '")
                        .append(held).append("'), ").append(i).append("),");
                continue;
            }
            String email = "c" + i + "@lanes.test";
            values.append("('").append(id).append("', 'acc_lanes_b', 'CREATE_LEAD', ").append(WriteRequestLog.orderingKey("acc_lanes_b", email))
                    .append(", '{\"email\":\"").append(email).append("\",\"phoneNumbers\":[],\"tags\":[],\"leadIps\":[]}'::jsonb, ")
                    .append(i).append("),");
        }
        values.setLength(values.length() - 1);
        try (Connection c = servers.db(); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO write_requests (id, account_id, event_type, lane, payload) "
                    + "SELECT id, account_id, event_type, lane, payload FROM (VALUES " + values + ") AS v(id, account_id, event_type, lane, payload, n) ORDER BY n");
        }
        return ids;
    }

    private int pendingOf(List<String> ids) throws Exception {
        return servers.count("SELECT count(*) FROM write_requests WHERE id = ANY(?) AND status = 'PENDING'", ids);
    }

    private boolean pending(String requestId) throws Exception {
        return servers.count("SELECT count(*) FROM write_requests WHERE id = '" + requestId + "' AND status = 'PENDING'") == 1;
    }

    private static String requestId(HttpResponse<String> r) throws Exception {
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).path("request_id").asText();
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Condition condition, String what, int seconds) throws Exception {
        Instant deadline = Instant.now().plusSeconds(seconds);
        while (!condition.holds()) {
            assertTrue(Instant.now().isBefore(deadline), "not within " + seconds + " s: " + what);
            Thread.sleep(200);
        }
    }
}
