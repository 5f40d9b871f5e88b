package dev.attribution.server.roles;

import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A read-only node (attribution.roles.command=false) serves reads and refuses writes with a 404 envelope. */
@MicronautTest(transactional = false)
@Property(name = "attribution.roles.command", value = "false")
class CommandOffNodeTest extends ApiTest {

    @Test
    void writesAreNotServedAndReadsAre() {
        String key = newAccount();
        Response write = post(key, "/api/v1.0/leads", "{\"email\":\"c@example.com\"}");
        assertEquals(404, write.status());
        assertEquals("This node does not serve POST /api/v1.0/leads (attribution.roles.command is false)", write.message());

        Response read = get(key, "/api/v1.0/leads");
        assertEquals(200, read.status(), read.raw());
        assertEquals(0, read.body().get("result").size());
    }

    /** Listing and reading webhook subscriptions are reads (README, "Node roles"); changing them is a write. */
    @Test
    void webhookSubscriptionsAreListedButNotCreated() {
        String key = newAccount();
        Response list = get(key, "/api/v1.0/webhook-subscriptions");
        assertEquals(200, list.status(), list.raw());
        assertEquals(0, list.body().get("result").size());

        Response create = post(key, "/api/v1.0/webhook-subscriptions",
                "{\"name\":\"n\",\"targetUrl\":\"http://127.0.0.1:9/hook\",\"eventTypes\":[\"sale.refunded\"]}");
        assertEquals(404, create.status());
        assertEquals("This node does not serve POST /api/v1.0/webhook-subscriptions (attribution.roles.command is false)",
                create.message());
    }

    /** Generating a report is a query route (its job runs on a query node), though it is a POST. */
    @Test
    void reportsAreGenerated() {
        String key = newAccount();
        Response generated = post(key, "/api/v1.0/reports/generate", REPORT);
        assertEquals(200, generated.status(), generated.raw());
    }

    static final String REPORT = "{\"configuration\":{\"attributionModel\":\"last_click\",\"startDate\":\"2026-11-01\","
            + "\"endDate\":\"2026-11-02\",\"level\":\"facebook_ad\",\"fields\":[\"revenue\"],\"ids\":[\"a1\"]}}";
}
