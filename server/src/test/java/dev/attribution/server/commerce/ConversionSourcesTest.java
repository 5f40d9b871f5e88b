package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * firstSource / lastSource of sales, calls, carts and subscriptions (spec 2.7–2.10): the lead's first and last source
 * touch made no later than the conversion, and the sale's provider (the order's integration).
 *
 * Lead src@example.com: clicks @src-a 2026-01-01, @src-b 2026-01-10, @src-c 2026-02-10 (after every conversion but
 * the late sale). Lead bare@example.com has no touch at all.
 */
@MicronautTest(transactional = false)
class ConversionSourcesTest extends ApiTest {

    String key;

    @BeforeAll
    void data() {
        key = newAccount();
        click("@src-a", "2026-01-01T10:00:00Z");
        click("@src-b", "2026-01-10T10:00:00Z");
        click("@src-c", "2026-02-10T10:00:00Z");
        processed(write(key, "POST", "/api/v1.0/orders", "{\"email\":\"src@example.com\",\"orderId\":\"src-1\",\"date\":\"2026-02-01T12:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}"));
        processed(write(key, "POST", "/api/v1.0/orders", "{\"email\":\"src@example.com\",\"orderId\":\"src-2\",\"date\":\"2026-03-01T12:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}"));
        processed(write(key, "POST", "/api/v1.0/orders", "{\"email\":\"bare@example.com\",\"orderId\":\"src-3\",\"date\":\"2026-02-01T12:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}"));
        processed(write(key, "POST", "/api/v1.0/calls", "{\"name\":\"Intro\",\"email\":\"src@example.com\",\"date\":\"2026-01-05T15:00:00Z\"}"));
        processed(write(key, "POST", "/api/v1.0/carts", "{\"email\":\"src@example.com\",\"date\":\"2026-01-20T15:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}"));
        processed(write(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"src@example.com\",\"status\":\"ACTIVE\","
                + "\"startDate\":\"2026-01-15\",\"price\":9.99,\"periodicity\":\"MONTH\"}"));
    }

    private void click(String tag, String date) {
        processed(write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"src@example.com\","
                + "\"sourceLinkTag\":\"" + tag + "\",\"date\":\"" + date + "\"}"));
    }

    private static void processed(JsonNode status) {
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
    }

    private JsonNode only(String path) {
        Response r = get(key, path);
        assertEquals(200, r.status(), r.raw());
        assertEquals(1, r.body().get("result").size(), r.raw());
        return r.body().get("result").get(0);
    }

    private static void sources(JsonNode item, String first, String last) {
        assertEquals(first, item.get("firstSource").get("tag").asText(), item.toString());
        assertEquals(last, item.get("lastSource").get("tag").asText(), item.toString());
        assertTrue(item.get("firstSource").has("clickId"), "a click backs the source: " + item);
    }

    @Test
    void saleSourcesAreTheTouchesBeforeTheSale() {
        JsonNode early = only("/api/v1.0/sales?emails=src@example.com&fromDate=2026-01-15T00:00:00&toDate=2026-02-05T00:00:00");
        sources(early, "@src-a", "@src-b");
        assertEquals("src-a", early.get("firstSource").get("name").asText());
        JsonNode late = only("/api/v1.0/sales?emails=src@example.com&fromDate=2026-02-20T00:00:00&toDate=2026-03-05T00:00:00");
        sources(late, "@src-a", "@src-c");
    }

    @Test
    void saleWithoutTouchesHasNoSources() {
        JsonNode bare = only("/api/v1.0/sales?emails=bare@example.com");
        assertFalse(bare.has("firstSource"), bare.toString());
        assertFalse(bare.has("lastSource"), bare.toString());
    }

    @Test
    void saleProviderNamesTheOrdersIntegration() {
        JsonNode late = only("/api/v1.0/sales?emails=src@example.com&fromDate=2026-02-20T00:00:00&toDate=2026-03-05T00:00:00");
        // POST /orders has no integrationType (spec 4.2): orders sent to the API come through the API integration
        assertEquals("API", late.get("provider").get("integration").get("type").asText(), late.toString());
    }

    @Test
    void callCartAndSubscriptionSources() {
        sources(only("/api/v1.0/calls?emails=src@example.com"), "@src-a", "@src-a");
        sources(only("/api/v1.0/carts?emails=src@example.com"), "@src-a", "@src-b");
        sources(only("/api/v1.0/subscriptions?emails=src@example.com"), "@src-a", "@src-b");
    }
}
