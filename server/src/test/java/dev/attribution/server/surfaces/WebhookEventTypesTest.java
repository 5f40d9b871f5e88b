package dev.attribution.server.surfaces;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every event type of spec 6, each produced by the write that emits it through the public API, reaches one
 * subscription selecting all eleven: signed (verified with the Standard Webhooks library), typed, and carrying the
 * subject it names.
 */
@MicronautTest(transactional = false)
class WebhookEventTypesTest extends ApiTest {

    static final List<String> ALL = List.of("sale.attributed", "sale.refunded", "call.attributed", "lead.opted.in",
            "lead.opted.in.first.time", "lead.origin.assigned", "lead.stage.changed", "lead.tag.added", "lead.tag.removed",
            "subscription.created", "subscription.status.changed");

    private final WebhookReceiver receiver;

    WebhookEventTypesTest() throws Exception {
        receiver = new WebhookReceiver();
    }

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("attribution.webhooks.allow-loopback", "true");
        p.put("attribution.webhooks.poll-interval", "PT0.05S");
        return p;
    }

    @AfterAll
    void close() {
        receiver.close();
    }

    private static void processed(JsonNode status) {
        assertEquals("PROCESSED", status.path("status").asText(), status.toString());
    }

    @Test
    void everyEventTypeIsDeliveredSignedWithItsSubject() throws Exception {
        String key = newAccount();
        StringBuilder types = new StringBuilder();
        ALL.forEach(t -> types.append(types.length() == 0 ? "" : ",").append('"').append(t).append('"'));
        Response created = post(key, "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"all\",\"targetUrl\":\"" + receiver.url("/all") + "\",\"eventTypes\":[" + types + "]}");
        assertEquals(200, created.status(), created.raw());
        Webhook verifier = new Webhook(created.body().get("result").get("secretKey").asText());

        // leads: tag added, opted in (first time), stage changed, tag removed
        processed(write(key, "POST", "/api/v1.0/leads", "{\"email\":\"all@hooks.test\",\"tags\":[\"!vip\"],\"adOptimizationConsent\":\"GRANTED\"}"));
        processed(write(key, "PUT", "/api/v1.0/leads?email=all@hooks.test", "{\"leadStage\":{\"name\":\"Booked\"},\"removeTags\":[\"!vip\"]}"));
        // commerce: origin assigned + sale attributed, refund, call, subscription created and changed
        JsonNode origin = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"origin@hooks.test\"}");
        processed(origin);
        processed(write(key, "POST", "/api/v1.0/orders", "{\"email\":\"all@hooks.test\",\"parentEmail\":\"origin@hooks.test\","
                + "\"orderId\":\"hooks-1\",\"items\":[{\"name\":\"Widget\",\"price\":10}]}"));
        processed(write(key, "DELETE", "/api/v1.0/orders/hooks-1", null));
        processed(write(key, "POST", "/api/v1.0/calls", "{\"name\":\"Intro\",\"email\":\"all@hooks.test\"}"));
        JsonNode sub = write(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"all@hooks.test\",\"status\":\"ACTIVE\","
                + "\"startDate\":\"2026-01-01\",\"price\":10,\"periodicity\":\"MONTH\"}");
        processed(sub);
        processed(write(key, "PUT", "/api/v1.0/subscriptions", "{\"ids\":[\"" + sub.get("result").get("id").asText()
                + "\"],\"status\":\"CANCELED\",\"cancelAtDate\":\"2026-03-01T00:00:00Z\"}"));

        Map<String, JsonNode> byType = await(() -> {
            Map<String, JsonNode> seen = new LinkedHashMap<>();
            for (WebhookReceiver.Received r : receiver.at("/all")) {
                try {
                    JsonNode body = JsonBody.mapper().readTree(r.body());
                    seen.putIfAbsent(body.get("type").asText(), body);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return seen.keySet().containsAll(ALL) ? seen : null;
        });
        assertEquals(new TreeSet<>(ALL), new TreeSet<>(byType.keySet()), "every type delivered, nothing else");
        for (WebhookReceiver.Received r : receiver.at("/all")) {
            verifier.verify(r.body(), r.headers());
        }
        for (String type : ALL) {
            JsonNode body = byType.get(type);
            assertTrue(body.has("timestamp") && body.get("accountId").asText().startsWith("acc_"), body.toString());
            assertTrue(body.has("data") && !body.get("data").isNull(), type + " carries its subject: " + body);
        }
        assertTrue(byType.get("sale.attributed").toString().contains("hooks-1"), byType.get("sale.attributed").toString());
        assertTrue(byType.get("sale.refunded").toString().contains("hooks-1"), byType.get("sale.refunded").toString());
        assertTrue(byType.get("call.attributed").toString().contains("Intro"), byType.get("call.attributed").toString());
        assertTrue(byType.get("lead.tag.removed").toString().contains("!vip"), byType.get("lead.tag.removed").toString());
        assertTrue(byType.get("lead.stage.changed").toString().contains("Booked"), byType.get("lead.stage.changed").toString());
        JsonNode assigned = byType.get("lead.origin.assigned").get("data");
        assertEquals("all@hooks.test", assigned.get("lead").get("email").asText(), assigned.toString());
        assertEquals(origin.get("result").get("id").asText(), assigned.get("originLeadId").asText(), assigned.toString());
        assertTrue(byType.get("subscription.status.changed").toString().contains("CANCELED"), byType.get("subscription.status.changed").toString());
    }
}
