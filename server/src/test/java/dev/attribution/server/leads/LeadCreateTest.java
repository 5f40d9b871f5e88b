package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** POST /leads (spec 4.1, 3.2): every body rule. */
@MicronautTest
class LeadCreateTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    private JsonNode lead(String email) {
        JsonNode r = get(key, "/api/v1.0/leads?emails=" + list(email)).body().get("result");
        assertEquals(1, r.size(), "one lead " + email);
        return r.get(0);
    }

    @Test
    void phoneOnlyLeadGetsPlaceholderEmailOnOwnDomain() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"phoneNumbers\":\"+1 (555) 010-2030\"}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        String email = s.get("result").get("email").asText();
        assertEquals("15550102030@phone.leads.invalid", email);
        assertEquals("[\"+1 (555) 010-2030\"]", s.get("result").get("phoneNumbers").toString());
    }

    @Test
    void phoneOnlyWriteUpdatesTheLeadHoldingThatPhone() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"phoneholder@example.com\",\"phoneNumbers\":[\"5550001111\"]}");
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"phoneNumbers\":[\"5550001111\"],\"firstName\":\"Pat\"}");
        assertEquals("phoneholder@example.com", s.get("result").get("email").asText());
        assertEquals("Pat", lead("phoneholder@example.com").get("firstName").asText());
    }

    @Test
    void neitherEmailNorPhoneIs400() {
        Response r = post(key, "/api/v1.0/leads", "{\"firstName\":\"x\"}");
        assertEquals(400, r.status());
        assertEquals("Either email or phoneNumbers must be provided", r.message());
        assertFalse(r.body().has("request_id"));
    }

    @Test
    void tagsAsSingleString() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"single@example.com\",\"tags\":\"!one\"}");
        assertEquals("[\"!one\"]", s.get("result").get("tags").toString());
    }

    @Test
    void blankStringOrNullTagsApplyNone() {
        JsonNode a = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"blanktags@example.com\",\"tags\":\"  \"}");
        assertEquals("[]", a.get("result").get("tags").toString());
        JsonNode b = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"nulltags@example.com\",\"tags\":null}");
        assertEquals("[]", b.get("result").get("tags").toString());
    }

    @Test
    void tagsAsObjectIs400() {
        Response r = post(key, "/api/v1.0/leads", "{\"email\":\"obj@example.com\",\"tags\":{\"a\":1}}");
        assertEquals(400, r.status());
        assertEquals("tags must be a string or an array of strings", r.message());
    }

    @Test
    void tagsDateBackdatesNewTagsOnly() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"dated@example.com\",\"tags\":[\"!old\"]}");
        write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"dated@example.com\",\"tags\":[\"!old\",\"!new\"],\"tagsDate\":\"2024-01-15T10:00:00Z\"}");
        Response r = get(key, "/api/v1.0/leads?tags=" + list("!new") + "&tagFromDate=2024-01-15&tagToDate=2024-01-15");
        assertEquals(1, r.body().get("result").size());
        Response old = get(key, "/api/v1.0/leads?tags=" + list("!old") + "&tagFromDate=2024-01-15&tagToDate=2024-01-15");
        assertEquals(0, old.body().get("result").size(), "a held tag keeps its date");
    }

    @Test
    void tagsDateWithOffsetNeedsSeconds() {
        Response r = post(key, "/api/v1.0/leads", "{\"email\":\"t@example.com\",\"tagsDate\":\"2024-01-15T10:00Z\"}");
        assertEquals(400, r.status());
        assertEquals("Invalid date format.", r.message());
        Response f = post(key, "/api/v1.0/leads", "{\"email\":\"t@example.com\",\"tagsDate\":\"2024-01-15T10:00:00.123Z\"}");
        assertEquals("Invalid date format.", f.message());
    }

    @Test
    void tagsDateInFutureIs400() {
        Response r = post(key, "/api/v1.0/leads", "{\"email\":\"t@example.com\",\"tagsDate\":\"2099-01-15T10:00:00Z\"}");
        assertEquals(400, r.status());
        assertEquals("The tags date cannot be in the future.", r.message());
    }

    @Test
    void leadIpsStored() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"ips@example.com\",\"leadIps\":[\"10.0.0.1\",\"10.0.0.2\"]}");
        assertEquals("[\"10.0.0.1\",\"10.0.0.2\"]", s.get("result").get("ips").toString());
    }

    @Test
    void phoneNumbersReplaceStoredOnesAndOmittingDeletesThem() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"phones@example.com\",\"phoneNumbers\":[\"111\",\"222\"]}");
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"phones@example.com\",\"phoneNumbers\":[\"333\"]}");
        assertEquals("[\"333\"]", s.get("result").get("phoneNumbers").toString());
        JsonNode t = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"phones@example.com\"}");
        assertEquals("[]", t.get("result").get("phoneNumbers").toString());
    }

    @Test
    void stageAppliedAsCurrentStage() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"stage@example.com\",\"stage\":\"Qualified\"}");
        assertEquals("Qualified", s.get("result").get("currentStage").get("name").asText());
        assertTrue(s.get("result").get("currentStage").has("date"));
    }

    @Test
    void consentDefaultsToUnspecifiedAndIsKeptWhenOmitted() {
        JsonNode a = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"consent@example.com\"}");
        assertEquals("UNSPECIFIED", a.get("result").get("adOptimizationConsent").asText());
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"consent@example.com\",\"adOptimizationConsent\":\"GRANTED\"}");
        JsonNode c = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"consent@example.com\",\"firstName\":\"K\"}");
        assertEquals("GRANTED", c.get("result").get("adOptimizationConsent").asText());
        JsonNode d = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"consent@example.com\",\"adOptimizationConsent\":\"\"}");
        assertEquals("UNSPECIFIED", d.get("result").get("adOptimizationConsent").asText(), "blank reads as UNSPECIFIED");
    }

    @Test
    void invalidConsentIs400ListingValues() {
        Response r = post(key, "/api/v1.0/leads", "{\"email\":\"c2@example.com\",\"adOptimizationConsent\":\"YES\"}");
        assertEquals(400, r.status());
        assertEquals("Invalid adOptimizationConsent 'YES'. Accepted values: GRANTED, DENIED, UNSPECIFIED", r.message());
    }

    @Test
    void resultIsTheLeadAsGetShowsIt() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"shape@example.com\",\"firstName\":\"S\"}");
        JsonNode listed = lead("shape@example.com");
        assertEquals(listed, s.get("result"));
        assertNull(s.get("result").get("firstSource"));
    }

    /**
     * The result reuses the lead rendered for the last {@code lead.tag.added} event when nothing was written after
     * it; a stage applied after the tags, or a {@code $} tag that made a sale, makes it read the lead again.
     */
    @Test
    void resultWithTagsIsTheLeadAsGetShowsIt() {
        JsonNode tagged = write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"shape-tags@example.com\",\"tags\":[\"@a\",\"@b\"],\"leadIps\":[\"10.9.9.9\"]}");
        assertEquals(lead("shape-tags@example.com"), tagged.get("result"));
        assertEquals("[\"@a\",\"@b\"]", tagged.get("result").get("tags").toString());

        JsonNode staged = write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"shape-stage@example.com\",\"tags\":[\"@a\"],\"stage\":\"Won\"}");
        assertEquals("Won", staged.get("result").get("currentStage").get("name").asText());
        assertEquals(lead("shape-stage@example.com"), staged.get("result"));

        write(key, "POST", "/api/v1.0/products", "{\"name\":\"Shape Course\",\"price\":10}");
        JsonNode sold = write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"shape-sale@example.com\",\"tags\":[\"@c\",\"$shape-course\"]}");
        assertEquals(lead("shape-sale@example.com"), sold.get("result"));
    }
}
