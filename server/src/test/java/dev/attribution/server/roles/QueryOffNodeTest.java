package dev.attribution.server.roles;

import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A write-only node (attribution.roles.query=false) accepts writes and refuses reads with a 404 envelope. */
@MicronautTest(transactional = false)
@Property(name = "attribution.roles.query", value = "false")
@Property(name = "attribution.webhooks.allow-loopback", value = "true") // the subscription targets 127.0.0.1
class QueryOffNodeTest extends ApiTest {

    @Test
    void readsAreNotServedAndWritesAre() {
        String key = newAccount();
        Response read = get(key, "/api/v1.0/leads");
        assertEquals(404, read.status());
        assertEquals("ERROR", read.body().get("result").asText());
        assertEquals("This node does not serve GET /api/v1.0/leads (attribution.roles.query is false)", read.message());

        Response write = post(key, "/api/v1.0/leads", "{\"email\":\"q@example.com\"}");
        assertEquals(200, write.status(), write.raw());
    }

    /** Generating a report is a query route: a write-only node refuses it, though it is a POST. */
    @Test
    void reportsAreNotGenerated() {
        String key = newAccount();
        Response generated = post(key, "/api/v1.0/reports/generate", CommandOffNodeTest.REPORT);
        assertEquals(404, generated.status());
        assertEquals("This node does not serve POST /api/v1.0/reports/generate (attribution.roles.query is false)",
                generated.message());
    }

    /** Listing webhook subscriptions is a read: a write-only node refuses it and still creates them. */
    @Test
    void webhookSubscriptionsAreCreatedButNotListed() {
        String key = newAccount();
        Response create = post(key, "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1:9/hook\",\"eventTypes\":[\"sale.refunded\"]}");
        assertEquals(200, create.status(), create.raw());

        Response list = get(key, "/api/v1.0/webhook-subscriptions");
        assertEquals(404, list.status());
        assertEquals("This node does not serve GET /api/v1.0/webhook-subscriptions (attribution.roles.query is false)",
                list.message());
    }
}
