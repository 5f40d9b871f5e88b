package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** POST /leads/tags (spec 4.1, 3.2, 7.3): selection, re-dating, every message. */
@MicronautTest
class LeadBulkTagTest extends LeadsApiTest {

    String key;
    String otherKey;
    String aId;

    @BeforeAll
    void data() {
        key = newAccount();
        otherKey = newAccount();
        aId = write(key, "POST", "/api/v1.0/leads", """
                {"email":"a@bulk.com","tags":["!held","$sale","@src"],"tagsDate":"2024-01-01T00:00:00Z"}""")
                .get("result").get("id").asText();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"b@bulk.com\"}");
        write(otherKey, "POST", "/api/v1.0/leads", "{\"email\":\"x@bulk.com\"}");
    }

    private String message(String body) {
        Response r = post(key, "/api/v1.0/leads/tags", body);
        assertEquals(400, r.status(), r.raw());
        return r.message();
    }

    @Test
    void idsAndEmailsAreAUnionAndResultIsTheTaggedLeads() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads/tags",
                "{\"ids\":[\"" + aId + "\",\"ld_unknown\"],\"emails\":\"b@bulk.com\",\"tags\":[\"!bulk\"]}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        JsonNode result = s.get("result");
        assertEquals(2, result.size());
        List<String> emails = new ArrayList<>();
        result.forEach(l -> emails.add(l.get("email").asText()));
        assertEquals(List.of("a@bulk.com", "b@bulk.com"), emails);
        result.forEach(l -> assertEquals(true, l.get("tags").toString().contains("!bulk")));
    }

    @Test
    void heldActionTagIsRedatedSaleAndSourceTagsUntouched() {
        write(key, "POST", "/api/v1.0/leads/tags",
                "{\"ids\":\"" + aId + "\",\"tags\":[\"!held\",\"$sale\",\"@src\"],\"tagsDate\":\"2024-07-01T00:00:00Z\"}");
        String base = "/api/v1.0/leads?ids=" + list(aId) + "&tagFromDate=2024-06-30&tagToDate=2024-07-02&tags=";
        assertEquals(1, get(key, base + list("!held")).body().get("result").size());
        assertEquals(0, get(key, base + list("$sale")).body().get("result").size());
        assertEquals(0, get(key, base + list("@src")).body().get("result").size());
    }

    @Test
    void noMatchingLeadFailsWithLeadNotFound() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads/tags", "{\"emails\":[\"x@bulk.com\"],\"tags\":\"!t\"}");
        assertEquals("FAILED", s.get("status").asText());
        assertEquals("Lead not found.", s.get("errorMessage").asText());
    }

    @Test
    void eitherIdsOrEmails() {
        assertEquals("Either 'ids' or 'emails' must be provided.", message("{\"tags\":[\"!t\"]}"));
        assertEquals("Either 'ids' or 'emails' must be provided.", message("{\"ids\":\" \",\"tags\":[\"!t\"]}"));
    }

    @Test
    void missingTags() {
        assertEquals("Missing required field: tags", message("{\"ids\":[\"x\"]}"));
        assertEquals("Missing required field: tags", message("{\"ids\":[\"x\"],\"tags\":\"  \"}"));
    }

    @Test
    void shapes() {
        assertEquals("ids must be an array of strings", message("{\"ids\":5,\"tags\":[\"!t\"]}"));
        assertEquals("emails must be an array of strings", message("{\"emails\":[1],\"tags\":[\"!t\"]}"));
        assertEquals("tags must be an array of strings", message("{\"ids\":[\"x\"],\"tags\":{\"a\":1}}"));
    }

    @Test
    void maximums() {
        String many = many(51);
        assertEquals("The maximum number of ids to be provided for update is 50", message("{\"ids\":" + many + ",\"tags\":[\"!t\"]}"));
        assertEquals("The maximum number of emails to be provided for update is 50", message("{\"emails\":" + many + ",\"tags\":[\"!t\"]}"));
        assertEquals("The maximum number of tags to be provided for update is 50", message("{\"ids\":[\"x\"],\"tags\":" + many + "}"));
    }

    @Test
    void tagsDateRules() {
        assertEquals("Invalid date format.", message("{\"ids\":[\"x\"],\"tags\":[\"!t\"],\"tagsDate\":\"yesterday\"}"));
        assertEquals("The tags date cannot be in the future.", message("{\"ids\":[\"x\"],\"tags\":[\"!t\"],\"tagsDate\":\"2099-01-01T00:00:00Z\"}"));
    }

    private static String many(int n) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            b.append(i == 0 ? "" : ",").append("\"v").append(i).append("\"");
        }
        return b.append("]").toString();
    }
}
