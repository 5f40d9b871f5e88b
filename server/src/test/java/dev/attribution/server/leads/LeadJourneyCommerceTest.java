package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /leads/journey (spec 2.17) with the lead's sales, calls, carts and subscriptions: the arrays in their own GET
 * shapes (carts in the journey variant) and the matching journey events in date order. The lead also has a tag, a
 * stage, an opt-in and imported email events, so its journey holds every event type of 2.17.
 */
@MicronautTest(transactional = false)
class LeadJourneyCommerceTest extends LeadsApiTest {

    String key;
    String saleId;
    String callId;
    String subscriptionId;

    @BeforeAll
    void data() {
        key = newAccount();
        processed(write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://a.test/","email":"buyer@example.com","sourceLinkTag":"@fb","date":"2024-01-01T00:00:00Z"}"""));
        processed(write(key, "POST", "/api/v1.0/carts", """
                {"email":"buyer@example.com","date":"2024-01-02T00:00:00Z","items":[{"name":"Widget","price":10,"sku":"W-1"},{"name":"Gadget","price":5}]}"""));
        callId = processed(write(key, "POST", "/api/v1.0/calls", """
                {"name":"Intro call","email":"buyer@example.com","date":"2024-01-03T00:00:00Z"}""")).get("result").get("id").asText();
        saleId = processed(write(key, "POST", "/api/v1.0/orders", """
                {"email":"buyer@example.com","orderId":"jr-1","date":"2024-01-04T00:00:00Z","currency":"USD","items":[{"name":"Widget","price":10}]}"""))
                .get("result").get(0).get("id").asText();
        subscriptionId = processed(write(key, "POST", "/api/v1.0/subscriptions", """
                {"email":"buyer@example.com","status":"ACTIVE","name":"Club","startDate":"2024-01-05","endDate":"2024-02-05","price":9.99,"periodicity":"MONTH"}"""))
                .get("result").get("id").asText();
        processed(write(key, "PUT", "/api/v1.0/leads?email=buyer@example.com", """
                {"tags":["!webinar"],"tagsDate":"2024-01-08T00:00:00Z","leadStage":{"name":"Customer","date":"2024-01-09T00:00:00Z"},
                 "adOptimizationConsent":"GRANTED"}"""));
        Response emails = post(key, "/api/v1.0/email-events/import", """
                lead_email,type,message_id,name,date,provider
                buyer@example.com,sent,msg-1,Welcome to the club,2024-01-06T00:00:00Z,Mailchimp
                BUYER@example.com,open,msg-1,Welcome to the club,2024-01-07T12:30:00Z,Mailchimp
                """);
        assertEquals(200, emails.status(), emails.raw());
        assertEquals(2, emails.body().get("result").get("eventsWritten").asInt(), emails.raw());
    }

    /** The JourneyEvent types of spec 2.17. */
    static final Set<String> SPEC_TYPES = Set.of("sl", "lead-stage", "sale", "call", "cart", "subscription-started",
            "subscription-ended", "action", "opt-in", "email", "email-open");

    private static JsonNode processed(JsonNode status) {
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        return status;
    }

    private JsonNode journey(String query) {
        Response r = get(key, "/api/v1.0/leads/journey?emails=buyer@example.com" + query);
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result").get(0);
    }

    @Test
    void theLeadsCommerceComesInTheShapesOfTheirGets() {
        JsonNode j = journey("");
        assertEquals(List.of(saleId), ids(j.get("sales")));
        assertEquals(List.of(callId), ids(j.get("calls")));
        assertEquals(List.of(subscriptionId), ids(j.get("subscriptions")));
        assertEquals(1, j.get("carts").size());
        JsonNode sale = j.get("sales").get(0);
        assertEquals(get(key, "/api/v1.0/sales?ids=" + saleId).body().get("result").get(0).toString(), sale.toString(), "the GET /sales shape");
        assertEquals("@fb", sale.get("firstSource").get("tag").asText());
        JsonNode cart = j.get("carts").get(0);
        assertFalse(cart.has("lead"), "a journey cart has no lead");
        assertEquals("Mon Jan 01 19:00:00 EST 2024", cart.get("creationDate").asText(), "legacy encoding in the journey");
        assertEquals("Widget", cart.get("products").get(0).get("name").asText());
        assertEquals("W-1", cart.get("products").get(0).get("sku").asText());
        assertFalse(cart.get("products").get(0).has("price"), "products are SaleProducts in a journey cart");
    }

    @Test
    void eventsOfEveryTypeOfTheSpecInDateOrder() {
        JsonNode events = journey("&includeEvents=true").get("journey");
        List<String> types = new ArrayList<>();
        events.forEach(e -> types.add(e.get("type").asText()));
        assertEquals(new TreeSet<>(SPEC_TYPES), new TreeSet<>(types), "every event type of spec 2.17");
        assertEquals(List.of("sl", "cart", "call", "sale", "subscription-started", "email", "email-open", "action", "lead-stage",
                "subscription-ended", "opt-in"), types, "chronological; the opt-in is dated when it was written");
        JsonNode cart = events.get(1);
        assertEquals("[\"Widget\",\"Gadget\"]", cart.get("subNames").toString());
        assertFalse(cart.has("id"), "carts are not backed by an external entity id");
        assertEquals(callId, events.get(2).get("id").asText());
        assertEquals("Intro call", events.get(2).get("name").asText());
        JsonNode sale = events.get(3);
        assertEquals(saleId, sale.get("id").asText());
        assertEquals("$", sale.get("currencySymbol").asText());
        assertEquals("$widget", sale.get("tag").asText());
        assertEquals("2024-01-03T19:00:00-05:00", sale.get("date").asText());
        assertEquals(subscriptionId, events.get(4).get("id").asText());
        assertEquals(subscriptionId, events.get(9).get("id").asText());
        assertTrue(events.get(9).get("date").asText().startsWith("2024-02-0"), events.get(9).toString());
        assertEquals("!webinar", events.get(7).get("tag").asText());
        assertEquals("Customer", events.get(8).get("name").asText());
    }

    @Test
    void emailEventsCarryTheMessageIdSubjectAndProvider() {
        JsonNode events = journey("&fields=journey").get("journey");
        JsonNode sent = events.get(5);
        assertEquals("{\"type\":\"email\",\"date\":\"2024-01-05T19:00:00-05:00\",\"id\":\"msg-1\",\"name\":\"Welcome to the club\","
                + "\"integrationProvider\":\"Mailchimp\",\"emailSource\":true}", sent.toString(), "dates in the account zone");
        JsonNode open = events.get(6);
        assertEquals("email-open", open.get("type").asText());
        assertEquals("msg-1", open.get("id").asText());
        assertEquals("2024-01-07T07:30:00-05:00", open.get("date").asText());
        assertTrue(open.get("emailSource").asBoolean());
        assertFalse(events.get(0).get("emailSource").asBoolean(), "a click on a source that is not an email link");
        assertFalse(events.get(3).has("emailSource"), "sales say nothing about email");
    }

    private static List<String> ids(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get("id").asText()));
        return out;
    }
}
