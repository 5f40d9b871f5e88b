package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 point 1 (first step): one account's long write holds up its own ordering lane only. Account A's order is
 * kept in its apply for as long as the test wants (the test holds the advisory lock its product takes, as another
 * order naming the same new product would); account B meanwhile writes 64 leads, spread over the lanes by their
 * emails. Every write of B in another lane than A's order is applied while the order waits; once the lock is let go
 * the order and B's writes behind it in its lane are applied too. With lanes owned by worker threads (4 lanes each),
 * B's writes in the three other lanes of that thread waited for the order (this test failed so, before).
 *
 * <p>A server process over a database of its own: no other test's worker takes these lanes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LaneIsolationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    ServerProcesses servers;
    Server server;

    @BeforeAll
    void ownDatabase() throws Exception {
        servers = new ServerProcesses("lanes");
        server = servers.start("a", Map.of());
    }

    @AfterAll
    void killLeftovers() {
        servers.close();
    }

    @Test
    void aLongWriteOfOneAccountHoldsUpItsOwnLaneOnly() throws Exception {
        String keyA = servers.createAccount("acc_lanes_a");
        String keyB = servers.createAccount("acc_lanes_b");
        try (Connection hold = servers.db()) {
            hold.setAutoCommit(false);
            try (PreparedStatement ps = hold.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('product:' || ? || ':' || ?))")) {
                ps.setString(1, "acc_lanes_a");
                ps.setString(2, ProductCatalog.deriveTag("Held Widget"));
                ps.execute();
            }
            String held = requestId(ServerProcesses.send(server, keyA, "POST", "/api/v1.0/orders",
                    "{\"orderId\":\"held-order\",\"email\":\"held@lanes.test\",\"items\":[{\"name\":\"Held Widget\",\"price\":1.25}]}"));
            int heldLane = servers.count("SELECT lane FROM write_requests WHERE id = '" + held + "'");
            // a worker holds the order's lane (advisory lock keys 0x5752, lane) and waits for the product's lock
            awaitTrue(() -> servers.count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 22354 "
                    + "AND objid = " + heldLane + " AND objsubid = 2 AND granted") > 0, "the order's apply has begun", 60);

            List<String> ofB = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                ofB.add(requestId(ServerProcesses.send(server, keyB, "POST", "/api/v1.0/leads", "{\"email\":\"b" + i + "@lanes.test\"}")));
            }
            String otherLanesPending = "SELECT count(*) FROM write_requests WHERE id = ANY(?) AND status = 'PENDING' AND lane <> " + heldLane;
            int otherLanes = servers.count("SELECT count(*) FROM write_requests WHERE id = ANY(?) AND lane <> " + heldLane, ofB);
            assertTrue(otherLanes >= 50, "B's writes spread over the lanes: " + otherLanes + " of 64 outside lane " + heldLane);
            awaitTrue(() -> servers.count(otherLanesPending, ofB) == 0, "B's writes of the other lanes applied while the order waits", 60);
            assertTrue(pending(held), "the order waits for the held lock");
            assertEquals(otherLanes, servers.count("SELECT count(*) FROM write_requests w JOIN leads l ON l.account_id = w.account_id "
                    + "AND l.email = w.payload->>'email' WHERE w.id = ANY(?) AND w.lane <> " + heldLane, ofB), "one lead per applied write");
            hold.commit();

            awaitTrue(() -> !pending(held) && servers.count("SELECT count(*) FROM write_requests WHERE id = ANY(?) AND status = 'PENDING'", ofB) == 0,
                    "the order and B's writes of its lane applied once the lock is let go", 60);
            assertEquals(1, servers.count("SELECT count(*) FROM sales WHERE account_id = 'acc_lanes_a' AND order_id = 'held-order'"));
            assertEquals(64, servers.count("SELECT count(*) FROM leads WHERE account_id = 'acc_lanes_b'"));
        }
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
