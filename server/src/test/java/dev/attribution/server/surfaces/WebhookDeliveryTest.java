package dev.attribution.server.surfaces;

import com.fasterxml.jackson.databind.JsonNode;
import com.standardwebhooks.Webhook;
import dev.attribution.api.JsonBody;
import dev.attribution.command.webhooks.WebhookDns;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.annotation.MockBean;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real write's outbox event reaches a local receiver, signed the Standard Webhooks way, retried after failures. */
@MicronautTest(transactional = false)
class WebhookDeliveryTest extends ApiTest {

    private final WebhookReceiver receiver;

    WebhookDeliveryTest() throws Exception {
        receiver = new WebhookReceiver();
    }

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("attribution.webhooks.allow-loopback", "true");
        p.put("attribution.webhooks.retry-period", "PT3S");
        p.put("attribution.webhooks.initial-backoff", "PT0.1S");
        p.put("attribution.webhooks.max-backoff", "PT0.5S");
        p.put("attribution.webhooks.poll-interval", "PT0.05S");
        return p;
    }

    @AfterAll
    void close() {
        receiver.close();
    }

    /** hooks.pinned.test answers loopback here only: a name the operating system's resolver does not know. */
    @MockBean(WebhookDns.class)
    WebhookDns pinned() {
        return host -> host.equals("hooks.pinned.test")
                ? new InetAddress[]{InetAddress.getLoopbackAddress()} : InetAddress.getAllByName(host);
    }

    private String subscribe(String key, String path, String type) {
        return subscribeUrl(key, receiver.url(path), type);
    }

    private String subscribeUrl(String key, String url, String type) {
        Response r = post(key, "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"t\",\"targetUrl\":\"" + url + "\",\"eventTypes\":[\"" + type + "\"]}");
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result").get("secretKey").asText() + " " + r.body().get("result").get("externalId").asText();
    }

    @Test
    void tagAddedIsDeliveredSignedAndRetried() throws Exception {
        String key = newAccount();
        String[] sub = subscribe(key, "/tags", "lead.tag.added").split(" ");
        subscribe(key, "/stages", "lead.stage.changed");
        receiver.failures.set(2);
        JsonNode status = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"hook@example.com\",\"tags\":[\"vip\"]}");
        assertEquals("PROCESSED", status.path("status").asText(), status.toString());
        List<WebhookReceiver.Received> got = await(() -> receiver.at("/tags").size() >= 3 ? receiver.at("/tags") : null);
        assertEquals(500, got.get(0).answered());
        assertEquals(500, got.get(1).answered());
        assertEquals(204, got.get(2).answered());
        assertEquals(got.get(0).header("webhook-id"), got.get(2).header("webhook-id"));
        Webhook verifier = new Webhook(sub[0]);
        for (WebhookReceiver.Received r : got) {
            verifier.verify(r.body(), r.headers());
            assertTrue(r.header("webhook-signature").startsWith("v1,"));
        }
        JsonNode body = JsonBody.mapper().readTree(got.get(2).body());
        assertEquals("lead.tag.added", body.get("type").asText());
        assertTrue(body.get("accountId").asText().startsWith("acc_"));
        assertTrue(body.has("timestamp") && body.has("data"), body.toString());
        assertTrue(body.toString().contains("hook@example.com"), body.toString());
        assertTrue(receiver.at("/stages").isEmpty());
        JsonNode after = await(() -> {
            JsonNode s = get(key, "/api/v1.0/webhook-subscriptions/" + sub[1]).body().get("result");
            return s.get("lastDeliveryDate").isNull() ? null : s;
        });
        assertEquals("ACTIVE", after.get("state").asText());
        assertFalse(after.has("secretKey"));
    }

    /** The connection goes to the address the delivery's own lookup answered (and checked), not to a second lookup. */
    @Test
    void deliveryConnectsToTheAddressItsLookupAnswered() {
        String key = newAccount();
        subscribeUrl(key, receiver.url("hooks.pinned.test", "/pinned"), "lead.tag.added");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"pinned@example.com\",\"tags\":[\"p\"]}");
        List<WebhookReceiver.Received> got = await(() -> receiver.at("/pinned").isEmpty() ? null : receiver.at("/pinned"));
        assertEquals(204, got.get(0).answered());
        assertTrue(got.get(0).header("host").startsWith("hooks.pinned.test:"), got.get(0).header("host"));
    }

    @jakarta.inject.Inject
    dev.attribution.command.webhooks.WebhookDelivery delivery;

    @Test
    void eventsWrittenWhileDeliveryIsDownAreDeliveredAfterRestart() throws Exception {
        String key = newAccount();
        subscribe(key, "/restart", "lead.tag.added");
        delivery.stop();
        try {
            write(key, "POST", "/api/v1.0/leads", "{\"email\":\"restart@example.com\",\"tags\":[\"r\"]}");
            Thread.sleep(300);
            assertTrue(receiver.at("/restart").isEmpty());
        } finally {
            delivery.start();
        }
        await(() -> receiver.at("/restart").isEmpty() ? null : true);
    }

    @Test
    void subscriptionFailingTheWholePeriodIsPaused() {
        String key = newAccount();
        String[] sub = subscribe(key, "/down", "lead.tag.added").split(" ");
        receiver.failures.set(1000);
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"down@example.com\",\"tags\":[\"x\"]}");
        JsonNode paused = await(() -> {
            JsonNode s = get(key, "/api/v1.0/webhook-subscriptions/" + sub[1]).body().get("result");
            return "AUTOMATIC_PAUSED".equals(s.get("state").asText()) ? s : null;
        });
        assertTrue(paused.get("lastDeliveryDate").isNull());
        assertTrue(receiver.at("/down").size() >= 2);
        receiver.failures.set(0);
    }

    /**
     * The run of failures starts at the first failed attempt; when that attempt comes late (a loaded machine, here
     * a target taking 1.5 s of the 3 s period to answer), the event reaches the retry period before the run does.
     * It must not be given up then, or nothing is left to retry and the failing subscription stays ACTIVE for good.
     */
    @Test
    void subscriptionIsPausedWhenItsFirstFailureCameLate() {
        String key = newAccount();
        String[] sub = subscribe(key, "/late", "lead.tag.added").split(" ");
        receiver.failures.set(1000);
        receiver.slow.set(1);
        try {
            write(key, "POST", "/api/v1.0/leads", "{\"email\":\"late@example.com\",\"tags\":[\"x\"]}");
            JsonNode paused = await(() -> {
                JsonNode s = get(key, "/api/v1.0/webhook-subscriptions/" + sub[1]).body().get("result");
                return "AUTOMATIC_PAUSED".equals(s.get("state").asText()) ? s : null;
            });
            assertTrue(paused.get("lastDeliveryDate").isNull());
            List<WebhookReceiver.Received> got = receiver.at("/late");
            assertTrue(got.size() >= 3, "retried after the slow first answer: " + got.size());
            assertTrue(got.stream().allMatch(r -> r.answered() == 500));
        } finally {
            receiver.failures.set(0);
            receiver.slow.set(0);
        }
    }
}
