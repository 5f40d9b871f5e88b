package dev.attribution.server.surfaces;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Webhook subscriptions CRUD and validation (spec 2.19, 6), loopback targets allowed as in every test. */
@MicronautTest(transactional = false)
class WebhookSubscriptionsTest extends ApiTest {

    private static final String PATH = "/api/v1.0/webhook-subscriptions";
    private String key;

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("attribution.webhooks.allow-loopback", "true");
        return p;
    }

    @BeforeAll
    void account() {
        key = newAccount();
    }

    private Response create(String json) {
        return post(key, PATH, json);
    }

    @Test
    void createReturnsSecretOnceAndListGetUpdateDelete() {
        Response created = create("{\"name\":\"Sales hook\",\"targetUrl\":\"http://127.0.0.1:9/hook\","
                + "\"eventTypes\":[\"sale.attributed\",\"lead.tag.added\"]}");
        assertEquals(200, created.status(), created.raw());
        JsonNode sub = created.body().get("result");
        String id = sub.get("externalId").asText();
        assertTrue(id.matches("sub-[0-9a-f]{32}"), id);
        assertTrue(sub.get("secretKey").asText().startsWith("whsec_"));
        assertEquals("Sales hook", sub.get("name").asText());
        assertEquals("http://127.0.0.1:9/hook", sub.get("targetUrl").asText());
        assertEquals("[\"sale.attributed\",\"lead.tag.added\"]", sub.get("eventTypes").toString());
        assertEquals("ACTIVE", sub.get("state").asText());
        assertTrue(sub.get("creationDate").asText().matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"), sub.toString());
        assertTrue(sub.has("lastDeliveryDate") && sub.get("lastDeliveryDate").isNull());

        Response list = get(key, PATH);
        assertEquals(200, list.status());
        JsonNode listed = null;
        for (JsonNode n : list.body().get("result")) {
            listed = n.get("externalId").asText().equals(id) ? n : listed;
        }
        assertEquals(id, listed.get("externalId").asText());
        assertFalse(listed.has("secretKey"), listed.toString());
        assertTrue(listed.get("lastDeliveryDate").isNull());

        Response one = get(key, PATH + "/" + id);
        assertEquals(200, one.status());
        assertFalse(one.body().get("result").has("secretKey"));

        Response paused = put(key, PATH + "/" + id, "{\"state\":\"MANUALLY_PAUSED\",\"name\":\"Renamed\",\"eventTypes\":[\"call.attributed\"]}");
        assertEquals(200, paused.status(), paused.raw());
        assertEquals("MANUALLY_PAUSED", paused.body().get("result").get("state").asText());
        assertEquals("Renamed", paused.body().get("result").get("name").asText());
        assertEquals("[\"call.attributed\"]", paused.body().get("result").get("eventTypes").toString());
        assertEquals("http://127.0.0.1:9/hook", paused.body().get("result").get("targetUrl").asText());
        assertFalse(paused.body().get("result").has("secretKey"));

        Response resumed = put(key, PATH + "/" + id, "{\"state\":\"ACTIVE\"}");
        assertEquals("ACTIVE", resumed.body().get("result").get("state").asText());

        Response deleted = delete(key, PATH + "/" + id);
        assertEquals(200, deleted.status(), deleted.raw());
        assertEquals("DELETED", deleted.body().get("result").get("state").asText());
        assertEquals(404, get(key, PATH + "/" + id).status());
        assertEquals("Webhook subscription not found", get(key, PATH + "/" + id).message());
        assertEquals(404, delete(key, PATH + "/" + id).status());
        assertTrue(get(key, PATH).body().get("result").findValues("externalId").stream().noneMatch(v -> v.asText().equals(id)));
    }

    @Test
    void subscriptionsAreScopedToTheAccount() {
        String id = create("{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1:9/\",\"eventTypes\":[\"sale.refunded\"]}")
                .body().get("result").get("externalId").asText();
        String other = newAccount();
        assertEquals(404, get(other, PATH + "/" + id).status());
        assertEquals(404, put(other, PATH + "/" + id, "{\"name\":\"x\"}").status());
        assertEquals(0, get(other, PATH).body().get("result").size());
    }

    @Test
    void validationMessages() {
        assertEquals("name is required | targetUrl is required | At least one event type is required", create("{}").message());
        assertEquals(400, create("{}").status());
        assertEquals("name is required", create("{\"name\":\" \",\"targetUrl\":\"http://127.0.0.1/\",\"eventTypes\":[\"sale.refunded\"]}").message());
        assertEquals("name must be at most 255 characters", create("{\"name\":\"" + "x".repeat(256)
                + "\",\"targetUrl\":\"http://127.0.0.1/\",\"eventTypes\":[\"sale.refunded\"]}").message());
        assertEquals("Invalid event type: lead.created", create("{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1/\","
                + "\"eventTypes\":[\"sale.refunded\",\"lead.created\"]}").message());
        assertEquals("At least one event type is required", create("{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1/\",\"eventTypes\":[]}").message());
        assertEquals("eventTypes must be an array of strings", create("{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1/\",\"eventTypes\":\"sale.refunded\"}").message());
        assertEquals("targetUrl must be an absolute http or https URL", create("{\"name\":\"n\",\"targetUrl\":\"ftp://example.com/\",\"eventTypes\":[\"sale.refunded\"]}").message());
        assertEquals("targetUrl must be an absolute http or https URL", create("{\"name\":\"n\",\"targetUrl\":\"not a url\",\"eventTypes\":[\"sale.refunded\"]}").message());
        assertEquals("targetUrl must be an absolute http or https URL", create("{\"name\":\"n\",\"targetUrl\":\"http://user:pw@127.0.0.1/\",\"eventTypes\":[\"sale.refunded\"]}").message());
        assertEquals("targetUrl host could not be resolved", create("{\"name\":\"n\",\"targetUrl\":\"https://no-such-host.invalid/\",\"eventTypes\":[\"sale.refunded\"]}").message());

        String id = create("{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1:9/\",\"eventTypes\":[\"sale.refunded\"]}")
                .body().get("result").get("externalId").asText();
        assertEquals("state must be ACTIVE or MANUALLY_PAUSED", put(key, PATH + "/" + id, "{\"state\":\"AUTOMATIC_PAUSED\"}").message());
        assertEquals("state must be ACTIVE or MANUALLY_PAUSED", put(key, PATH + "/" + id, "{\"state\":\"DELETED\"}").message());
        assertEquals("At least one event type is required", put(key, PATH + "/" + id, "{\"eventTypes\":[]}").message());
        assertEquals("targetUrl must resolve to a public address", put(key, PATH + "/" + id, "{\"targetUrl\":\"http://10.1.2.3/\"}").message());
        assertEquals(400, put(key, PATH + "/" + id, "{\"secretKey\":\"x\"}").status());
    }

    @Test
    void privateLinkLocalAndMetadataTargetsAreRefused() {
        for (String url : new String[]{"http://10.0.0.1/", "http://172.16.5.4/", "http://192.168.1.1/", "http://169.254.169.254/latest/meta-data/",
                "http://100.64.0.1/", "http://0.0.0.0/", "http://[fd00::1]/", "http://[fe80::1]/", "http://[::ffff:10.0.0.1]/",
                "http://metadata.google.internal/"}) {
            Response r = create("{\"name\":\"n\",\"targetUrl\":\"" + url + "\",\"eventTypes\":[\"sale.refunded\"]}");
            assertEquals(400, r.status(), url);
            assertEquals("targetUrl must resolve to a public address", r.message(), url);
        }
    }
}
