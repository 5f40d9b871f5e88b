package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/** PUT /leads (spec 4.1, 3.2): selection, every body field and rule. */
@MicronautTest
class LeadUpdateTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"known-stage@example.com\",\"stage\":\"Known\"}");
    }

    private String create(String email) {
        return write(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}").get("result").get("id").asText();
    }

    @Test
    void selectedByEmailSetsNamesAndNewEmail() {
        create("old@example.com");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=old@example.com",
                "{\"email\":\"new@example.com\",\"firstName\":\"N\",\"lastName\":\"L\"}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        assertEquals("UPDATE_LEAD", s.get("eventType").asText());
        assertEquals("new@example.com", s.get("result").get("email").asText());
        assertEquals("N", s.get("result").get("firstName").asText());
    }

    @Test
    void selectedById() {
        String id = create("byid@example.com");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?id=" + id, "{\"firstName\":\"I\"}");
        assertEquals("I", s.get("result").get("firstName").asText());
    }

    @Test
    void selectedByPhone() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"byphone@example.com\",\"phoneNumbers\":[\"+1 303-555-0142\"]}");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?phone=13035550142", "{\"lastName\":\"P\"}");
        assertEquals("byphone@example.com", s.get("result").get("email").asText());
        assertEquals("P", s.get("result").get("lastName").asText());
    }

    @Test
    void noSelectorIs400() {
        Response r = put(key, "/api/v1.0/leads", "{\"firstName\":\"x\"}");
        assertEquals(400, r.status());
        assertEquals("Either 'email', 'id' or 'phone' must be provided.", r.message());
    }

    @Test
    void unknownLeadFails() {
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=nobody@example.com", "{\"firstName\":\"x\"}");
        assertEquals("FAILED", s.get("status").asText());
        assertEquals("Lead not found.", s.get("errorMessage").asText());
    }

    @Test
    void tagsAlreadyHeldAreNotRedatedAndNewOnesTakeTagsDate() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"redate@example.com\",\"tags\":[\"!a\"],\"tagsDate\":\"2024-02-01T00:00:00Z\"}");
        write(key, "PUT", "/api/v1.0/leads?email=redate@example.com", "{\"tags\":[\"!a\",\"!b\"],\"tagsDate\":\"2024-06-01T00:00:00Z\"}");
        String base = "/api/v1.0/leads?emails=" + list("redate@example.com");
        assertEquals(1, get(key, base + "&tags=" + list("!a") + "&tagFromDate=2024-01-31&tagToDate=2024-02-02").body().get("result").size());
        assertEquals(1, get(key, base + "&tags=" + list("!b") + "&tagFromDate=2024-05-31&tagToDate=2024-06-02").body().get("result").size());
    }

    @Test
    void removeTags() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"rm@example.com\",\"tags\":[\"!a\",\"!b\",\"!c\"]}");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=rm@example.com", "{\"removeTags\":[\"!a\",\"!c\",\"!never\"]}");
        assertEquals("[\"!b\"]", s.get("result").get("tags").toString());
        JsonNode t = write(key, "PUT", "/api/v1.0/leads?email=rm@example.com", "{\"removeTags\":\"\"}");
        assertEquals("[\"!b\"]", t.get("result").get("tags").toString(), "blank removes none");
    }

    @Test
    void removeTagsOfOtherShapeIs400() {
        Response r = put(key, "/api/v1.0/leads?email=rm@example.com", "{\"removeTags\":{\"x\":1}}");
        assertEquals(400, r.status());
        assertEquals("removeTags must be a string or an array of strings", r.message());
    }

    @Test
    void phoneNumbersAreAddedAndIpsAdded() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"addph@example.com\",\"phoneNumbers\":[\"111\"]}");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=addph@example.com",
                "{\"phoneNumbers\":[\"222\"],\"leadIps\":[\"1.2.3.4\"]}");
        assertEquals("[\"111\",\"222\"]", s.get("result").get("phoneNumbers").toString());
        assertEquals("[\"1.2.3.4\"]", s.get("result").get("ips").toString());
    }

    @Test
    void consentUnchangedWhenOmittedBlankIsUnspecified() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"pc@example.com\",\"adOptimizationConsent\":\"DENIED\"}");
        JsonNode a = write(key, "PUT", "/api/v1.0/leads?email=pc@example.com", "{\"firstName\":\"C\"}");
        assertEquals("DENIED", a.get("result").get("adOptimizationConsent").asText());
        JsonNode b = write(key, "PUT", "/api/v1.0/leads?email=pc@example.com", "{\"adOptimizationConsent\":\" \"}");
        assertEquals("UNSPECIFIED", b.get("result").get("adOptimizationConsent").asText());
    }

    @Test
    void leadStageAppliedWithItsDate() {
        create("ls@example.com");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=ls@example.com",
                "{\"leadStage\":{\"name\":\"  Demo booked \",\"date\":\"2024-04-02T10:00:00\"}}");
        assertEquals("Demo booked", s.get("result").get("currentStage").get("name").asText());
        assertEquals("2024-04-02T06:00:00-04:00", s.get("result").get("currentStage").get("date").asText(), "no offset = UTC");
    }

    @Test
    void emptyStageNameIs400() {
        Response r = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":{\"name\":\"  \"}}");
        assertEquals(400, r.status());
        assertEquals("The lead stage name cannot be empty", r.message());
    }

    @Test
    void leadStageOfOtherShapeIs400NamingTheField() {
        Response r = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":\"Known\"}");
        assertEquals(400, r.status());
        assertEquals("leadStage must be an object", r.message());
        Response n = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":{\"name\":7}}");
        assertEquals(400, n.status());
        assertEquals("name must be a string", n.message());
        Response d = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":{\"name\":\"X\",\"date\":\" \"}}");
        assertEquals(400, d.status());
        assertEquals("Invalid date format.", d.message());
    }

    @Test
    void malformedStageDateIs400() {
        Response r = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":{\"name\":\"X\",\"date\":\"02/04/2024\"}}");
        assertEquals(400, r.status());
        assertEquals("Invalid date format.", r.message());
        Response f = put(key, "/api/v1.0/leads?email=ls@example.com", "{\"leadStage\":{\"name\":\"X\",\"date\":\"2024-04-02T10:00:00.5+02:00\"}}");
        assertEquals("Invalid date format.", f.message());
    }

    @Test
    void removeLeadStagesClearsTheHeldStageAndIgnoresOthers() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"rs@example.com\",\"stage\":\"Trial\"}");
        JsonNode s = write(key, "PUT", "/api/v1.0/leads?email=rs@example.com", "{\"removeLeadStages\":[\"trial\",\"Known\"]}");
        assertNull(s.get("result").get("currentStage"));
        assertEquals(0, get(key, "/api/v1.0/leads?stage=" + list("Trial")).body().get("result").size());
    }

    @Test
    void oneUnknownStageNameRejectsTheWholeRequest() {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"rs2@example.com\",\"stage\":\"Known\"}");
        Response r = put(key, "/api/v1.0/leads?email=rs2@example.com",
                "{\"firstName\":\"Z\",\"removeLeadStages\":[\"Known\",\"Nope\"]}");
        assertEquals(400, r.status());
        assertFalse(r.body().has("request_id"));
        assertEquals("Invalid removeLeadStages: unknown lead stage 'Nope'. No change was applied", r.message());
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + list("rs2@example.com")).body().get("result").get(0);
        assertEquals("Known", lead.get("currentStage").get("name").asText());
        assertNull(lead.get("firstName"));
    }

    @Test
    void applyingAndRemovingTheSameStageIs400() {
        Response r = put(key, "/api/v1.0/leads?email=rs2@example.com",
                "{\"leadStage\":{\"name\":\"Known\"},\"removeLeadStages\":[\"known\"]}");
        assertEquals(400, r.status());
        assertEquals("The same lead stage cannot be applied and removed in one request: Known", r.message());
    }
}
