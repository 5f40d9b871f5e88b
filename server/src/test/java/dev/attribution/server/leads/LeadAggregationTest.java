package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** GET /leads/aggregation from ClickHouse (spec 4.1, 2.18). */
@MicronautTest
class LeadAggregationTest extends LeadsApiTest {

    String key;
    String bigKey;

    @BeforeAll
    void data() {
        key = newAccount();
        bigKey = newAccount();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"l1@agg.com\",\"tags\":[\"!a\",\"!b\"],\"stage\":\"Hot\",\"phoneNumbers\":\"+1 415 555 0001\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"l2@agg.com\",\"tags\":[\"!a\"],\"stage\":\"Cold\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"l3@agg.com\",\"stage\":\"hot\"}");
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"l4@agg.com\",\"tags\":\"!c\"}");
        await(() -> agg("attribute=TAG").get("totalCount").asLong() == 4 && agg("attribute=STAGE").get("groups").size() == 2 ? true : null);
    }

    private JsonNode agg(String query) {
        Response r = get(key, "/api/v1.0/leads/aggregation?" + query);
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result");
    }

    @Test
    void tagGroupsLargestFirst() {
        assertEquals("{\"groups\":[{\"key\":\"!a\",\"count\":2},{\"key\":\"!b\",\"count\":1},{\"key\":\"!c\",\"count\":1}],\"remainingCount\":0,\"totalCount\":4}",
                agg("attribute=TAG").toString());
    }

    @Test
    void groupsLimitAndRemainingCount() {
        JsonNode r = agg("attribute=TAG&groupsLimit=1");
        assertEquals("[{\"key\":\"!a\",\"count\":2}]", r.get("groups").toString());
        assertEquals(2, r.get("remainingCount").asLong(), "raising groupsLimit by this returns the rest");
        assertEquals(4, r.get("totalCount").asLong(), "every matching lead, holding the attribute or not");
    }

    @Test
    void stageKeyIsTheStageName() {
        assertEquals("[{\"key\":\"Hot\",\"count\":2},{\"key\":\"Cold\",\"count\":1}]", agg("attribute=STAGE").get("groups").toString());
    }

    @Test
    void tagsNarrowCountedLeadsNotGroups() {
        JsonNode r = agg("attribute=TAG&tags=" + list("!b"));
        assertEquals("[{\"key\":\"!a\",\"count\":1},{\"key\":\"!b\",\"count\":1}]", r.get("groups").toString());
        assertEquals(1, r.get("totalCount").asLong());
    }

    @Test
    void phonesMatchOnLastDigits() {
        assertEquals(1, agg("attribute=TAG&phones=" + list("4155550001")).get("totalCount").asLong());
        assertEquals(1, agg("attribute=TAG&phones=" + list("555-0001")).get("totalCount").asLong());
        assertEquals(0, agg("attribute=TAG&phones=" + list("5550002")).get("totalCount").asLong());
    }

    @Test
    void stageFilterAndUnmatchedStageGivesEmptyResult() {
        assertEquals(2, agg("attribute=TAG&stage=" + list("HOT")).get("totalCount").asLong());
        assertEquals("{\"groups\":[],\"remainingCount\":0,\"totalCount\":0}", agg("attribute=TAG&stage=" + list("nope")).toString());
    }

    @Test
    void emailsAndIdsFilters() {
        assertEquals(2, agg("attribute=TAG&emails=" + list("l1@", "l2@agg.com")).get("totalCount").asLong());
        String id = get(key, "/api/v1.0/leads?emails=" + list("l4@agg.com")).body().get("result").get(0).get("id").asText();
        assertEquals("[{\"key\":\"!c\",\"count\":1}]", agg("attribute=TAG&ids=" + list(id)).get("groups").toString());
    }

    @Test
    void errors() {
        assertEquals("Missing required parameter: attribute", get(key, "/api/v1.0/leads/aggregation").message());
        assertEquals("Invalid attribute 'COLOR'. Accepted values: TAG, STAGE, FIRST_SOURCE_TAG, LAST_SOURCE_TAG",
                get(key, "/api/v1.0/leads/aggregation?attribute=COLOR").message());
        assertEquals("groupsLimit must be between 1 and 1000", get(key, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=0").message());
        assertEquals("groupsLimit must be between 1 and 1000", get(key, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=1001").message());
        assertEquals("Unknown parameter: foo", get(key, "/api/v1.0/leads/aggregation?attribute=TAG&foo=1").message());
        assertEquals("fromDate cannot be later than toDate",
                get(key, "/api/v1.0/leads/aggregation?attribute=TAG&fromDate=2024-01-02&toDate=2024-01-01").message());
    }

    /** Done-when of the issue: counts equal an independent PostgreSQL count over 10,000 generated leads. */
    @Test
    void countsEqualPostgresOnTenThousandLeads() throws SQLException {
        String accountId = Db.one("SELECT account_id FROM api_keys WHERE key_hash = '" + ApiKeys.hash(bigKey) + "'");
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement()) {
            st.execute("INSERT INTO leads (account_id, id, email, stage_name, created_at, updated_at) "
                    + "SELECT '" + accountId + "', 'gen' || g, 'gen' || g || '@big.test', "
                    + "CASE WHEN g % 7 = 0 THEN NULL ELSE 'S' || (g % 5) END, now() - (g % 300) * interval '1 hour', now() "
                    + "FROM generate_series(1, 10000) g");
            st.execute("INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at) "
                    + "SELECT '" + accountId + "', 'gen' || g, '!t' || ((g * t) % 37), now() FROM generate_series(1, 10000) g, generate_series(1, 3) t "
                    + "ON CONFLICT DO NOTHING");
        }
        Map<String, Long> expectedTags = counts("SELECT tag, count(*) FROM lead_tags WHERE account_id = '" + accountId + "' GROUP BY tag");
        Map<String, Long> expectedStages = counts("SELECT stage_name, count(*) FROM leads WHERE account_id = '" + accountId
                + "' AND stage_name IS NOT NULL GROUP BY stage_name");
        JsonNode tags = await(() -> {
            JsonNode r = get(bigKey, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=1000").body().get("result");
            return r.get("totalCount").asLong() == 10000 && sum(r) == expectedTags.values().stream().mapToLong(Long::longValue).sum() ? r : null;
        });
        assertEquals(expectedTags, toMap(tags));
        JsonNode stages = get(bigKey, "/api/v1.0/leads/aggregation?attribute=STAGE").body().get("result");
        assertEquals(expectedStages, toMap(stages));
        JsonNode limited = get(bigKey, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=5").body().get("result");
        assertEquals(sum(tags) - sum(limited), limited.get("remainingCount").asLong());
    }

    private static long sum(JsonNode result) {
        long s = 0;
        for (JsonNode g : result.get("groups")) {
            s += g.get("count").asLong();
        }
        return s;
    }

    private static Map<String, Long> toMap(JsonNode result) {
        Map<String, Long> out = new HashMap<>();
        result.get("groups").forEach(g -> out.put(g.get("key").asText(), g.get("count").asLong()));
        return out;
    }

    private static Map<String, Long> counts(String sql) throws SQLException {
        Map<String, Long> out = new HashMap<>();
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                out.put(rs.getString(1), rs.getLong(2));
            }
        }
        return out;
    }
}
