package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** DELETE /leads (spec 3.2, 4.1, 7.2.8): erasure and the blacklist. */
@MicronautTest
class LeadErasureTest extends LeadsApiTest {

    static final String BLACKLISTED =
            "The event was discarded because an email or phone number it carries is blacklisted for this account.";

    String key;
    String otherKey;

    @BeforeAll
    void account() {
        key = newAccount();
        otherKey = newAccount();
    }

    @Test
    void erasureRedactsAndBlacklistsEmailAndPhones() {
        String id = write(key, "POST", "/api/v1.0/leads", """
                {"email":"gone@example.com","firstName":"G","phoneNumbers":["+44 20 7946 0018"],"leadIps":["9.9.9.9"],"tags":["!x"]}""")
                .get("result").get("id").asText();
        JsonNode s = write(key, "DELETE", "/api/v1.0/leads?email=gone@example.com", null);
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        assertNull(s.get("result"), "no result for a delete");
        assertEquals(0, get(key, "/api/v1.0/leads?ids=" + list(id)).body().get("result").size());
        String row = Db.one("SELECT email || '|' || coalesce(first_name, '-') || '|' || erased FROM leads WHERE id = '" + id + "'");
        assertEquals("erased-" + id.toLowerCase() + "@phone.leads.invalid|-|true", row.trim());
        assertEquals("0", Db.one("SELECT count(*) FROM lead_phones WHERE lead_id = '" + id + "'").trim());
        assertEquals("0", Db.one("SELECT count(*) FROM lead_ips WHERE lead_id = '" + id + "'").trim());

        Response again = post(key, "/api/v1.0/leads", "{\"email\":\"GONE@example.com\"}");
        assertEquals(400, again.status());
        assertEquals(BLACKLISTED, again.message());
        assertFalse(again.body().has("request_id"));
        Response byPhone = post(key, "/api/v1.0/leads", "{\"phoneNumbers\":\"442079460018\"}");
        assertEquals(400, byPhone.status());
        assertEquals(BLACKLISTED, byPhone.message());
        Response click = post(key, "/api/v1.0/clicks", "{\"referrerUrl\":\"https://x.test/\",\"email\":\"gone@example.com\"}");
        assertEquals(400, click.status());
        assertEquals(BLACKLISTED, click.message());
        Response update = put(key, "/api/v1.0/leads?email=other@example.com", "{\"email\":\"gone@example.com\"}");
        assertEquals(BLACKLISTED, update.message());
    }

    @Test
    void erasureDeletesTheLeadsEmailEventsAndAReimportDoesNotBringThemBack() {
        String id = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"mailed-gone@example.com\"}").get("result").get("id").asText();
        String file = """
                lead_id,type,message_id,name,date,provider
                %s,sent,erase-m1,Hello,2024-05-01T10:00:00Z,Mailchimp
                %s,open,erase-m1,Hello,2024-05-02T10:00:00Z,Mailchimp
                """.formatted(id, id);
        Response imported = post(key, "/api/v1.0/email-events/import", file);
        assertEquals(200, imported.status(), imported.raw());
        assertEquals("2", Db.one("SELECT count(*) FROM lead_email_events WHERE lead_id = '" + id + "'").trim());
        JsonNode s = write(key, "DELETE", "/api/v1.0/leads?id=" + id, null);
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        assertEquals("0", Db.one("SELECT count(*) FROM lead_email_events WHERE lead_id = '" + id + "'").trim());
        JsonNode again = post(key, "/api/v1.0/email-events/import", file).body().get("result");
        assertEquals(2, again.get("unknownLeads").asInt(), "an erased lead is not found: " + again);
        assertEquals("0", Db.one("SELECT count(*) FROM lead_email_events WHERE lead_id = '" + id + "'").trim());
    }

    @Test
    void blacklistAppliesAtOnceByIdToo() {
        String id = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"byid-gone@example.com\"}").get("result").get("id").asText();
        Response accepted = delete(key, "/api/v1.0/leads?id=" + id);
        assertEquals(200, accepted.status());
        assertEquals(400, post(key, "/api/v1.0/leads", "{\"email\":\"byid-gone@example.com\"}").status());
        awaitRequest(key, accepted.body().get("request_id").asText());
    }

    @Test
    void blacklistIsPerAccount() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"shared@example.com\"}");
        write(key, "DELETE", "/api/v1.0/leads?email=shared@example.com", null);
        assertEquals(200, post(otherKey, "/api/v1.0/leads", "{\"email\":\"shared@example.com\"}").status());
    }

    @Test
    void selectorRequired() {
        Response r = delete(key, "/api/v1.0/leads");
        assertEquals(400, r.status());
        assertEquals("Either 'email' or 'id' must be provided.", r.message());
    }

    @Test
    void unknownLeadFails() {
        JsonNode s = write(key, "DELETE", "/api/v1.0/leads?id=ld_nothere", null);
        assertEquals("FAILED", s.get("status").asText());
        assertEquals("Lead not found.", s.get("errorMessage").asText());
    }

    @Test
    void erasedLeadLeavesClickHouse() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ch-gone@example.com\",\"tags\":[\"!chgone\"]}");
        await(() -> get(key, "/api/v1.0/leads/aggregation?attribute=TAG&emails=" + list("ch-gone@example.com"))
                .body().get("result").get("totalCount").asLong() == 1 ? true : null);
        write(key, "DELETE", "/api/v1.0/leads?email=ch-gone@example.com", null);
        await(() -> {
            JsonNode r = get(key, "/api/v1.0/leads/aggregation?attribute=TAG&tags=" + list("!chgone")).body().get("result");
            return r.get("totalCount").asLong() == 0 && r.get("groups").size() == 0 ? true : null;
        });
    }
}
