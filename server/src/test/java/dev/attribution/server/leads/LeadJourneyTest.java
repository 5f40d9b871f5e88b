package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /leads/journey (spec 4.1, 2.17) for the event types this service holds for leads. */
@MicronautTest
class LeadJourneyTest extends LeadsApiTest {

    String key;
    String leadId;

    @BeforeAll
    void data() {
        key = newAccount();
        leadId = write(key, "POST", "/api/v1.0/leads", """
                {"email":"jo@example.com","tags":["!signup","$prod"],"tagsDate":"2024-01-02T00:00:00Z"}""").get("result").get("id").asText();
        write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://a.test/?x=1","email":"jo@example.com","sourceLinkTag":"@fb","integrationType":"FACEBOOK",
                 "adSourceId":"adset-1","adspendAdId":"ad-9","date":"2024-01-01T00:00:00Z"}""");
        write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://b.test/","email":"jo@example.com","sourceLinkTag":"@gads","integrationType":"GOOGLE",
                 "adSourceId":"group-7","date":"2024-01-03T00:00:00Z"}""");
        write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://c.test/","email":"jo@example.com","sourceLinkTag":"@newsletter","isOrganic":true,"date":"2024-01-04T00:00:00Z"}""");
        write(key, "PUT", "/api/v1.0/leads?id=" + leadId, """
                {"leadStage":{"name":"Booked","date":"2024-01-05T00:00:00Z"},"adOptimizationConsent":"GRANTED"}""");
    }

    @Test
    void defaultFieldsOmitJourney() {
        JsonNode j = get(key, "/api/v1.0/leads/journey?emails=JO@example.com").body().get("result").get(0);
        assertEquals("jo@example.com", j.get("lead").get("email").asText());
        assertFalse(j.get("lead").get("isOriginLead").asBoolean());
        for (String f : List.of("sales", "calls", "carts", "subscriptions", "linkedLeads")) {
            assertEquals("[]", j.get(f).toString(), f + " requested and empty");
        }
        assertFalse(j.has("journey"));
    }

    @Test
    void includeEventsGivesTheChronologicalJourney() {
        JsonNode journey = get(key, "/api/v1.0/leads/journey?ids=" + leadId + "&includeEvents=true").body().get("result").get(0).get("journey");
        List<String> types = new ArrayList<>();
        journey.forEach(e -> types.add(e.get("type").asText()));
        assertEquals("sl", types.get(0));
        assertTrue(types.containsAll(List.of("sl", "action", "lead-stage", "opt-in")), types.toString());
        assertEquals(List.of("sl", "action", "sl", "sl", "lead-stage", "opt-in"), types);
        JsonNode fb = journey.get(0);
        assertEquals("@fb", fb.get("tag").asText());
        assertEquals("adset-1", fb.get("adSet").get("adSourceId").asText());
        assertEquals("ad-9", fb.get("ad").get("adSourceId").asText());
        assertFalse(fb.has("campaign"));
        assertEquals("2023-12-31T19:00:00-05:00", fb.get("date").asText());
        // an id the account does not know is an ad group on GOOGLE (docs/attribution-models.md, AdSourceLevel);
        // LeadJourneySourcesTest has the campaign-level case (an imported campaign)
        JsonNode google = journey.get(2);
        assertEquals("group-7", google.get("adSet").get("adSourceId").asText());
        assertFalse(google.has("campaign"));
        assertFalse(google.has("ad"));
        JsonNode organic = journey.get(3);
        assertFalse(organic.has("adSet") || organic.has("campaign") || organic.has("ad"));
        assertEquals("Booked", journey.get(4).get("name").asText());
    }

    @Test
    void fieldsSelectsWhatComesBack() {
        JsonNode j = get(key, "/api/v1.0/leads/journey?ids=" + leadId + "&fields=sales,journey").body().get("result").get(0);
        assertTrue(j.has("lead"), "lead always included");
        assertTrue(j.has("sales") && j.has("journey"));
        assertFalse(j.has("calls") || j.has("linkedLeads"));
    }

    @Test
    void invalidFieldIs400() {
        Response r = get(key, "/api/v1.0/leads/journey?ids=" + leadId + "&fields=lead,orders");
        assertEquals(400, r.status());
        assertEquals("Invalid field: orders", r.message());
    }

    @Test
    void idsOrEmailsRequired() {
        Response r = get(key, "/api/v1.0/leads/journey");
        assertEquals(400, r.status());
        assertEquals("Either 'ids' or 'emails' must be provided.", r.message());
    }

    @Test
    void unmatchedLeadsGiveNoJourney() {
        assertEquals(0, get(key, "/api/v1.0/leads/journey?ids=ld_none").body().get("result").size());
    }
}
