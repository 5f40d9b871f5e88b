package dev.attribution.server.surfaces;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * "A server restart loses no undelivered event" with a real server process: events of every type are written
 * through the API while the target fails every delivery; the process is killed with SIGKILL while some events'
 * deliveries are pending between retries and the rest are still in the outbox, not yet fanned out (the fan-out is
 * held by a test transaction locking {@code webhook_deliveries}). A new process over the same database, with the
 * target accepting again, delivers every event at least once, signed for the subscription's secret.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WebhookRestartTest {

    private static final Map<String, String> PROPERTIES = Map.of(
            "attribution.webhooks.allow-loopback", "true",
            "attribution.webhooks.retry-period", "PT1H",
            "attribution.webhooks.initial-backoff", "PT0.2S",
            "attribution.webhooks.max-backoff", "PT1S",
            "attribution.webhooks.timeout", "PT2S",
            "attribution.webhooks.poll-interval", "PT0.1S");
    private static final String ACCOUNT = "acc_hooks_restart";

    ServerProcesses servers;
    WebhookReceiver receiver;
    String key;

    @BeforeAll
    void ownDatabase() throws Exception {
        servers = new ServerProcesses("hooks");
        receiver = new WebhookReceiver();
    }

    @AfterAll
    void stop() {
        servers.close();
        receiver.close();
    }

    @Test
    void undeliveredEventsSurviveAKillAndAreDeliveredByTheNextProcess() throws Exception {
        receiver.failures.set(Integer.MAX_VALUE);
        Server first = servers.start("a", PROPERTIES);
        key = servers.createAccount(ACCOUNT);
        StringBuilder types = new StringBuilder();
        WebhookEventTypesTest.ALL.forEach(t -> types.append(types.length() == 0 ? "" : ",").append('"').append(t).append('"'));
        JsonNode created = JsonBody.mapper().readTree(ServerProcesses.send(first, key, "POST", "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"all\",\"targetUrl\":\"" + receiver.url("/restart") + "\",\"eventTypes\":[" + types + "]}").body());
        Webhook verifier = new Webhook(created.get("result").get("secretKey").asText());

        // fanned out, and failing: deliveries pending between retries
        processed(first, "POST", "/api/v1.0/leads", "{\"email\":\"r@hooks.test\",\"tags\":[\"!vip\"],\"adOptimizationConsent\":\"GRANTED\"}");
        processed(first, "PUT", "/api/v1.0/leads?email=r@hooks.test", "{\"leadStage\":{\"name\":\"Booked\"},\"removeTags\":[\"!vip\"]}");
        processed(first, "POST", "/api/v1.0/leads", "{\"email\":\"origin@hooks.test\"}");
        processed(first, "POST", "/api/v1.0/orders", "{\"email\":\"r@hooks.test\",\"parentEmail\":\"origin@hooks.test\","
                + "\"orderId\":\"restart-1\",\"items\":[{\"name\":\"Widget\",\"price\":10}]}");
        processed(first, "POST", "/api/v1.0/calls", "{\"name\":\"Intro\",\"email\":\"r@hooks.test\"}");
        ApiTest.await(() -> sql("SELECT count(*) FROM domain_events WHERE account_id = '" + ACCOUNT + "' AND NOT fanned_out") == 0
                && sql("SELECT count(*) FROM webhook_deliveries WHERE attempts = 0 OR state <> 'PENDING'") == 0 ? true : null);
        int fannedOut = sql("SELECT count(*) FROM webhook_deliveries");

        // still in the outbox at the kill: the fan-out waits on a lock the test holds
        try (Connection lock = servers.db()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE webhook_deliveries IN EXCLUSIVE MODE");
            }
            processed(first, "DELETE", "/api/v1.0/orders/restart-1", null);
            JsonNode sub = processed(first, "POST", "/api/v1.0/subscriptions", "{\"email\":\"r@hooks.test\",\"status\":\"ACTIVE\","
                    + "\"startDate\":\"2026-01-01\",\"price\":10,\"periodicity\":\"MONTH\"}");
            processed(first, "PUT", "/api/v1.0/subscriptions", "{\"ids\":[\"" + sub.get("result").get("id").asText()
                    + "\"],\"status\":\"CANCELED\",\"cancelAtDate\":\"2026-03-01T00:00:00Z\"}");
            first.kill();
            lock.rollback();
        }
        List<String> events = eventIds();
        assertTrue(fannedOut >= 8, "deliveries pending at the kill: " + fannedOut);
        assertTrue(events.size() >= fannedOut + 3, "events not fanned out at the kill: " + (events.size() - fannedOut));
        assertEquals(fannedOut, sql("SELECT count(*) FROM webhook_deliveries WHERE state = 'PENDING'"));
        assertTrue(receiver.at("/restart").stream().allMatch(r -> r.answered() == 500), "nothing delivered before the kill");
        assertTrue(receiver.at("/restart").size() >= fannedOut, "every fanned-out event was attempted and refused");

        servers.start("b", PROPERTIES);
        receiver.failures.set(0);
        Set<String> delivered = ApiTest.await(() -> {
            Set<String> ids = new HashSet<>();
            receiver.at("/restart").stream().filter(r -> r.answered() == 204).forEach(r -> ids.add(r.header("webhook-id")));
            return ids.containsAll(events) ? ids : null;
        });
        assertEquals(new TreeSet<>(events), new TreeSet<>(delivered), "every event delivered, no other");
        Set<String> typesDelivered = new TreeSet<>();
        for (WebhookReceiver.Received r : receiver.at("/restart")) {
            verifier.verify(r.body(), r.headers());
            typesDelivered.add(JsonBody.mapper().readTree(r.body()).get("type").asText());
        }
        assertEquals(new TreeSet<>(WebhookEventTypesTest.ALL), typesDelivered);
        ApiTest.await(() -> sql("SELECT count(*) FROM webhook_deliveries WHERE state <> 'DELIVERED'") == 0 ? true : null);
        assertEquals(events.size(), sql("SELECT count(*) FROM webhook_deliveries"), "one delivery per event");
    }

    /** Sends a write to {@code server} and waits until it is PROCESSED; returns the status resource. */
    private JsonNode processed(Server server, String method, String path, String json) throws Exception {
        HttpResponse<String> accepted = ServerProcesses.send(server, key, method, path, json);
        assertEquals(200, accepted.statusCode(), accepted.body());
        String id = JsonBody.mapper().readTree(accepted.body()).get("request_id").asText();
        JsonNode status = ApiTest.await(() -> {
            try {
                JsonNode s = JsonBody.mapper().readTree(ServerProcesses.send(server, key, "GET", "/api/v1.0/requests/" + id, null)
                        .body()).get("result");
                return "PENDING".equals(s.path("status").asText()) ? null : s;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals("PROCESSED", status.path("status").asText(), status.toString());
        return status;
    }

    private List<String> eventIds() throws Exception {
        try (Connection c = servers.db(); PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM domain_events WHERE account_id = ? ORDER BY seq")) {
            ps.setString(1, ACCOUNT);
            List<String> ids = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
            return ids;
        }
    }

    private int sql(String query) {
        try {
            return servers.count(query);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
