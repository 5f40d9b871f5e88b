package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** GET /tags, GET /tags/count (spec 4.7) and GET /stages (4.13; shape read by real clients: result + nextPageId). */
@MicronautTest
class TagsAndStagesTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void data() {
        key = newAccount();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"t1@example.com\",\"tags\":[\"!a\",\"@b\"],\"stage\":\"Lead\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"t2@example.com\",\"tags\":[\"!a\"],\"stage\":\"Lead\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"t3@example.com\",\"tags\":[\"$c\"],\"stage\":\"Lead\"}");
        write(key, "PUT", "/api/v1.0/leads?email=t3@example.com", "{\"leadStage\":{\"name\":\"Customer\",\"date\":\"2024-06-01T00:00:00Z\"}}");
    }

    @Test
    void tagsListsEveryName() {
        Response r = get(key, "/api/v1.0/tags");
        assertEquals("[\"!a\",\"$c\",\"@b\"]", r.body().get("result").toString());
        assertEquals(true, r.body().has("request_id"));
    }

    @Test
    void tagCountsOncePerLeadPerTag() {
        JsonNode r = get(key, "/api/v1.0/tags/count").body();
        assertEquals("[{\"name\":\"!a\",\"amount\":2},{\"name\":\"$c\",\"amount\":1},{\"name\":\"@b\",\"amount\":1}]", r.get("result").toString());
        assertEquals("[{\"name\":\"@b\",\"amount\":1}]", get(key, "/api/v1.0/tags/count?name=" + enc("@b")).body().get("result").toString());
        assertEquals(0, get(key, "/api/v1.0/tags/count?name=b").body().get("result").size(), "exact name");
    }

    @Test
    void tagCountPaging() {
        JsonNode first = get(key, "/api/v1.0/tags/count?pageSize=2").body();
        assertEquals(2, first.get("result").size());
        JsonNode second = get(key, "/api/v1.0/tags/count?pageSize=2&pageId=" + enc(first.get("nextPageId").asText())).body();
        assertEquals("[{\"name\":\"@b\",\"amount\":1}]", second.get("result").toString());
        assertNull(second.get("nextPageId").textValue());
    }

    @Test
    void tagCountIsStrict() {
        Response u = get(key, "/api/v1.0/tags/count?nam=x");
        assertEquals(400, u.status());
        assertEquals("Unknown parameter: nam", u.message());
        Response d = get(key, "/api/v1.0/tags/count?name=a&name=b");
        assertEquals("Duplicate parameter: name", d.message());
        assertEquals(400, get(key, "/api/v1.0/tags/count?pageSize=251").status());
        Response p = get(key, "/api/v1.0/tags/count?pageId=garbage");
        assertEquals("Invalid pageId", p.message());
    }

    @Test
    void stagesCountCurrentLeads() {
        JsonNode r = get(key, "/api/v1.0/stages").body();
        assertEquals(2, r.get("result").size());
        JsonNode lead = find(r.get("result"), "Lead");
        JsonNode customer = find(r.get("result"), "Customer");
        assertEquals(2, lead.get("leadCount").asLong());
        assertEquals(1, customer.get("leadCount").asLong());
    }

    @Test
    void stageDatesCountEveryLeadThatEnteredInsideThePeriod() {
        String today = java.time.LocalDate.now(java.time.ZoneId.of("America/New_York")).toString();
        JsonNode r = get(key, "/api/v1.0/stages?stageFromDate=" + today + "&stageToDate=" + today).body().get("result");
        assertEquals(3, find(r, "Lead").get("leadCount").asLong(), "t3 entered Lead today, then moved on");
        assertEquals(0, find(r, "Customer").get("leadCount").asLong());
        JsonNode june = get(key, "/api/v1.0/stages?stageFromDate=2024-05-31&stageToDate=2024-06-01").body().get("result");
        assertEquals(1, find(june, "Customer").get("leadCount").asLong());
    }

    @Test
    void stageNameFilterAndPaging() {
        JsonNode r = get(key, "/api/v1.0/stages?name=customer").body().get("result");
        assertEquals(1, r.size());
        assertEquals("Customer", r.get(0).get("name").asText());
        JsonNode first = get(key, "/api/v1.0/stages?pageSize=1").body();
        assertEquals(1, first.get("result").size());
        JsonNode second = get(key, "/api/v1.0/stages?pageSize=1&pageId=" + enc(first.get("nextPageId").asText())).body();
        assertEquals(1, second.get("result").size());
        assertNull(second.get("nextPageId").textValue());
    }

    @Test
    void stageDateRules() {
        Response r = get(key, "/api/v1.0/stages?stageFromDate=2024-02-02&stageToDate=2024-02-01");
        assertEquals(400, r.status());
        assertEquals("stageFromDate cannot be later than stageToDate", r.message());
        Response f = get(key, "/api/v1.0/stages?fromDate=2099-02-02");
        assertEquals("'fromDate' cannot be in a future month: 2099-02-02", f.message());
    }

    private static JsonNode find(JsonNode stages, String name) {
        for (JsonNode s : stages) {
            if (s.get("name").asText().equals(name)) {
                return s;
            }
        }
        throw new AssertionError("no stage " + name + " in " + stages);
    }
}
