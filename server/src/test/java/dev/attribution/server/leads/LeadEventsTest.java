package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Domain events of lead writes in the outbox (spec 6), recorded in the write's transaction. */
@MicronautTest
class LeadEventsTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    private static String events(String leadId, String type) {
        return Db.one("SELECT count(*) FROM domain_events WHERE subject_id = '" + leadId + "' AND event_type = '" + type + "'");
    }

    private String create(String body) {
        return write(key, "POST", "/api/v1.0/leads", body).get("result").get("id").asText();
    }

    @Test
    void tagAddedOncePerNewTagAndRemoved() {
        String id = create("{\"email\":\"ev-tags@example.com\",\"tags\":[\"!a\",\"!b\"]}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ev-tags@example.com\",\"tags\":[\"!a\"]}");
        assertEquals("2", events(id, "lead.tag.added"));
        write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"removeTags\":[\"!a\",\"!zzz\"]}");
        assertEquals("1", events(id, "lead.tag.removed"));
        String payload = Db.one("SELECT payload::text FROM domain_events WHERE subject_id = '" + id + "' AND event_type = 'lead.tag.removed'");
        assertEquals(true, payload.contains("\"tag\": \"!a\"") && payload.contains("ev-tags@example.com"), payload);
    }

    @Test
    void stageChangedOnlyWhenTheStageChanges() {
        String id = create("{\"email\":\"ev-stage@example.com\",\"stage\":\"One\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ev-stage@example.com\",\"stage\":\"one\"}");
        write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"leadStage\":{\"name\":\"Two\"}}");
        write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"removeLeadStages\":[\"Two\"]}");
        assertEquals("3", events(id, "lead.stage.changed"));
    }

    @Test
    void optInEventsWhenConsentBecomesGranted() {
        String id = create("{\"email\":\"ev-consent@example.com\",\"adOptimizationConsent\":\"GRANTED\"}");
        assertEquals("1", events(id, "lead.opted.in"));
        assertEquals("1", events(id, "lead.opted.in.first.time"));
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ev-consent@example.com\",\"adOptimizationConsent\":\"GRANTED\"}");
        assertEquals("1", events(id, "lead.opted.in"), "already granted: no event");
        write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"adOptimizationConsent\":\"DENIED\"}");
        write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"adOptimizationConsent\":\"GRANTED\"}");
        assertEquals("2", events(id, "lead.opted.in"));
        assertEquals("1", events(id, "lead.opted.in.first.time"));
    }

    @Test
    void failedWriteLeavesNoEvent() {
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=ev-none@example.com", "{\"tags\":[\"!x\"]}");
        assertEquals("FAILED", s.get("status").asText());
        assertEquals("0", Db.one("SELECT count(*) FROM domain_events WHERE payload::text LIKE '%ev-none@example.com%'"));
    }
}
