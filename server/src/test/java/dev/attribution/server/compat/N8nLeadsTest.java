package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link N8nApiTest} on the node's leads: create, update by email, phone and id (as typed, the characters fetch leaves
 * alone), get many, journey, delete, "return all" of the demo account's leads, an agency acting on its client through
 * {@code Accessible-Account-Id}; tags and stages; dates as n8n expressions print them; phone-only leads.
 */
@MicronautTest(transactional = false)
class N8nLeadsTest extends N8nApiTest {

    // ---------------------------------------------------------------- leads

    @Test
    void leadCreateUpdateGetJourneyAndDelete() {
        // Create: email, then the comma-split array fields, then the additional fields as entered (blank ones too)
        JsonNode created = applied(n8n, n8n.request("POST", "/leads", """
                {"email":"ada+n8n@example.com","phoneNumbers":["+15550001111"],"leadIps":["10.1.1.1"],
                 "tags":["!webinar","@n8n-facebook"],"firstName":"Ada","lastName":"Lovelace","stage":"",
                 "adOptimizationConsent":"GRANTED"}""", null), "CREATE_LEAD").get("result");
        String leadId = created.get("id").asText();
        assertEquals("ada+n8n@example.com", created.get("email").asText());

        // the same lead again with the options added but left empty: blank names are no value, not a new value
        // (phoneNumbers sent again: on POST, omitting it deletes the stored numbers, spec 4.1)
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"ada+n8n@example.com","phoneNumbers":["+15550001111"],"firstName":"","lastName":"","stage":"",
                 "adOptimizationConsent":"GRANTED"}""",
                null), "CREATE_LEAD");
        JsonNode lead = n8n.get("/leads", q("emails", "\"ada+n8n@example.com\"", "pageSize", 50)).result().get(0);
        assertEquals("Ada", lead.get("firstName").asText(), lead.toString());
        assertEquals("Lovelace", lead.get("lastName").asText(), lead.toString());

        // Update by email: PUT with body and query goes through fetch with a hand-built, unencoded query string
        JsonNode updated = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!n8n-upsell"],"removeTags":["!webinar"],"leadStage":{"name":"Qualified","date":"2026-11-20T10:00:00"},
                 "email":"","firstName":"Augusta"}""", q("email", "ada+n8n@example.com")), "UPDATE_LEAD").get("result");
        assertEquals(leadId, updated.get("id").asText(), updated.toString());
        assertTrue(texts(updated.get("tags")).contains("!n8n-upsell"), updated.toString());
        assertFalse(texts(updated.get("tags")).contains("!webinar"), updated.toString());
        assertEquals("Augusta", updated.get("firstName").asText());

        // Update by phone, the number as typed (raw '+'); the old Stage field is mapped to leadStage by the node
        JsonNode byPhone = applied(n8n, n8n.request("PUT", "/leads", """
                {"leadStage":{"name":"Customer"},"removeLeadStages":["Qualified"]}""", q("phone", "+15550001111")),
                "UPDATE_LEAD").get("result");
        assertEquals(leadId, byPhone.get("id").asText());
        assertEquals("Customer", byPhone.get("currentStage").get("name").asText());

        // Update by id, with a space typed in front of it (fetch encodes it as %20)
        applied(n8n, n8n.request("PUT", "/leads", """
                {"lastName":"King"}""", q("id", " " + leadId)), "UPDATE_LEAD");

        // Get many: every filter the node has, quoted lists, n8n's qs encoding
        Answer many = n8n.get("/leads", q("emails", "\"ada+n8n@example.com\"", "ids", "\"" + leadId + "\"",
                "tags", "\"!n8n-upsell\"", "tagFromDate", "2026-11-01T00:00:00", "tagToDate", "2026-11-30T23:59:59",
                "phones", "\"+15550001111\"", "stage", "\"Customer\"", "fromDate", "2026-11-01T00:00:00",
                "toDate", "2026-11-30T00:00:00", "updatedFromDate", "2026-11-01T00:00:00", "updatedToDate", "2026-11-30T00:00:00",
                "pageSize", 50));
        ok(many);
        assertEquals(1, many.result().size(), many.toString());
        assertEquals("King", many.result().get(0).get("lastName").asText());
        assertTrue(many.body().has("request_id"));

        // Get journey: ids and emails unquoted, includeEvents=true
        Answer journey = n8n.get("/leads/journey", q("ids", leadId, "emails", "ada+n8n@example.com", "includeEvents", true));
        ok(journey);
        assertEquals(leadId, journey.result().get(0).get("lead").get("id").asText(), journey.toString());
        assertTrue(journey.result().get(0).has("journey"));

        // Delete by email (n8n's qs encodes the '+' and '@')
        applied(n8n, n8n.request("DELETE", "/leads", null, q("email", "ada+n8n@example.com")), "DELETE_LEAD");
        Answer gone = n8n.get("/leads", q("ids", "\"" + leadId + "\"", "pageSize", 50));
        ok(gone);
        assertEquals(0, gone.result().size(), gone.toString());
    }

    @Test
    void leadUpdateByEmailKeepsWhatTheUserTyped() {
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"grace.hopper+ops@example.com","tags":["!imported"]}""", null), "CREATE_LEAD");
        // a trailing space typed after the address reaches the server as %20
        JsonNode r = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!n8n-updated"]}""", q("email", "grace.hopper+ops@example.com ")), "UPDATE_LEAD").get("result");
        assertEquals("grace.hopper+ops@example.com", r.get("email").asText());
        assertTrue(texts(r.get("tags")).contains("!n8n-updated"), r.toString());
    }

    @Test
    void leadUpdateQueryCharactersFetchLeavesAlone() {
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"o'brien+x@example.com"}""", null), "CREATE_LEAD");
        // fetch percent-encodes the apostrophe; '+' and '@' stay raw
        JsonNode r = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!quoted"]}""", q("email", "o'brien+x@example.com")), "UPDATE_LEAD").get("result");
        assertTrue(texts(r.get("tags")).contains("!quoted"), r.toString());
        // characters a URI may not hold, and a '%' that starts no escape, which fetch sends as typed: taken literally
        for (String email : List.of("100%off@example.com", "o|brien{x}@example.com", "caret^tick`@example.com")) {
            applied(n8n, n8n.request("POST", "/leads", "{\"email\":\"" + email + "\"}", null), "CREATE_LEAD");
            JsonNode lead = applied(n8n, n8n.request("PUT", "/leads", """
                    {"tags":["!literal"]}""", q("email", email)), "UPDATE_LEAD").get("result");
            assertEquals(email, lead.get("email").asText());
            assertTrue(texts(lead.get("tags")).contains("!literal"), lead.toString());
        }
    }

    @Test
    void leadReturnAllPagesWith250() {
        List<JsonNode> leads = demo.all("/leads", q());
        assertEquals(seeded.get("leads").asInt(), leads.size());
        Set<String> ids = new HashSet<>();
        leads.forEach(l -> ids.add(l.get("id").asText()));
        assertEquals(leads.size(), ids.size(), "no lead twice across pages");
        assertEquals(seeded.get("sales").asInt(), demo.all("/sales", q("isRecurringSale", "ALL", "saleRefundedState", "ALL")).size());
    }

    @Test
    void agencyActsOnItsClientWithTheHeaderOnEveryRequest() {
        String agency = account();
        directory.link(agency, accountId, "APPROVED");
        N8nClient asAgency = new N8nClient(server.getURL().toString(), key(agency), " " + accountId + " ");
        applied(asAgency, asAgency.request("POST", "/leads", """
                {"email":"agency+lead@example.com","tags":["!from-agency"]}""", null), "CREATE_LEAD");
        applied(asAgency, asAgency.request("PUT", "/leads", """
                {"tags":["!agency-updated"]}""", q("email", "agency+lead@example.com")), "UPDATE_LEAD");
        JsonNode lead = n8n.get("/leads", q("emails", "\"agency+lead@example.com\"", "pageSize", 50)).result().get(0);
        assertTrue(texts(lead.get("tags")).contains("!agency-updated"), lead.toString());
    }

    // ---------------------------------------------------------------- tags, stages

    @Test
    void tagsAndStages() {
        Answer tags = demo.get("/tags", null);
        ok(tags);
        assertTrue(tags.result().isArray() && tags.result().size() > 0, tags.toString());
        List<JsonNode> counts = demo.all("/tags/count", q());
        assertFalse(counts.isEmpty());
        ok(demo.get("/tags/count", q("name", tags.result().get(0).asText(), "pageSize", 50)));
        List<JsonNode> stages = demo.all("/stages", q());
        assertNotNull(stages);
        ok(demo.get("/stages", q("stageFromDate", "2026-09-01T00:00:00", "stageToDate", "2026-10-31T00:00:00", "pageSize", 50)));
    }

    // ---------------------------------------------------------------- dates and phone-only leads

    @Test
    void datesAsN8nExpressionsPrintThem() {
        // {{ $now }} and {{ $json.createdAt }} reach the API as ISO strings with milliseconds and an offset
        String now = "2026-11-20T09:15:42.123-05:00";
        applied(n8n, n8n.request("POST", "/orders", """
                {"email":"dated+n8n@example.com","items":[{"name":"Dated Item","price":10,"quantity":1}],"date":"%s"}"""
                .formatted(now), null), "CREATE_ORDER");
        applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Dated call","email":"dated+n8n@example.com","date":"%s"}""".formatted(now), null), "CREATE_CALL");
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/dated","email":"dated+n8n@example.com","date":"%s"}""".formatted(now), null),
                "CREATE_CLICK");
        Answer sales = n8n.get("/sales", q("emails", "\"dated+n8n@example.com\"", "fromDate", "2026-11-20T00:00:00.000-05:00",
                "toDate", "2026-11-20T23:59:59.999-05:00", "pageSize", 50));
        ok(sales);
        assertEquals(1, sales.result().size(), sales.toString());
        // the date picker's own form, and a bare date
        ok(n8n.get("/calls", q("emails", "\"dated+n8n@example.com\"", "fromDate", "2026-11-20", "toDate", "2026-11-20T23:59:59",
                "pageSize", 50)));
    }

    @Test
    void tagsDateWithMillisecondsIsRefusedAsTheSpecSays() {
        Answer r = n8n.request("POST", "/leads", """
                {"email":"millis+n8n@example.com","tags":["!x"],"tagsDate":"2026-11-20T09:15:42.123-05:00"}""", null);
        assertEquals(400, r.status(), r.toString());
        assertEquals("Invalid date format.", r.body().get("message").get(0).asText());
    }

    @Test
    void phoneOnlyLeadAndTagsDate() {
        JsonNode lead = applied(n8n, n8n.request("POST", "/leads", """
                {"phoneNumbers":["+1 555 000 7777"],"tags":["!sms-optin"],"tagsDate":"2026-11-19T08:00:00"}""", null),
                "CREATE_LEAD").get("result");
        assertTrue(lead.get("email").asText().startsWith("15550007777@"), lead.toString());
        JsonNode updated = applied(n8n, n8n.request("PUT", "/leads", """
                {"email":"sms+lead@example.com","tags":["!sms-confirmed"]}""", q("phone", "+1 555 000 7777")), "UPDATE_LEAD")
                .get("result");
        assertEquals("sms+lead@example.com", updated.get("email").asText(), updated.toString());
        ok(n8n.get("/leads", q("phones", "\"+1 555 000 7777\"", "pageSize", 50)));
        assertEquals(1, n8n.get("/leads", q("phones", "\"+1 555 000 7777\"", "pageSize", 50)).result().size());
    }
}
