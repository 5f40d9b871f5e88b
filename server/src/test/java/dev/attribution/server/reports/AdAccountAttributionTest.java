package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * GET /attribution/ad-account over {@link ApiWrittenFixture} (written through the API): the whole-range row, buckets
 * that sum to it, options, texts.
 */
@MicronautTest(transactional = false)
class AdAccountAttributionTest extends ApiTest {

    String key;

    static final String Q = "/api/v1.0/attribution/ad-account?attributionModel=last_click&startDate=2026-11-03&endDate=2026-11-18"
            + "&fields=sales,total_revenue,cost,leads,roas,name&ids=" + enc("\"act1\"");

    @BeforeAll
    void data() {
        key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
    }

    private JsonNode result(String query) {
        Response r = get(key, query);
        assertEquals(200, r.status(), r.raw());
        assertNotNull(r.body().get("request_id"));
        return r.body().get("result");
    }

    private static void money(String want, JsonNode got) {
        assertEquals(0, new BigDecimal(want).compareTo(got.decimalValue()), "expected " + want + ", got " + got);
    }

    @Test
    void oneRowForTheWholeRange() {
        JsonNode rows = result(Q);
        assertEquals(1, rows.size());
        JsonNode row = rows.get(0);
        assertEquals("act1", row.get("id").asText());
        assertEquals("act1", row.get("name").asText(), "an ad account the spend file named has no name: its id");
        assertEquals(4, row.get("sales").asLong());
        money("270.00", row.get("total_revenue"));
        money("60.00", row.get("cost"));
        money("4.50", row.get("roas"));
        assertEquals(2, row.get("leads").asLong());
    }

    @Test
    void bucketsSumToTheWholeRangeRow() {
        JsonNode whole = result(Q).get(0);
        for (String g : List.of("day", "week", "month", "year")) {
            JsonNode rows = result(Q + "&adLevelDateGroupingOption=" + g);
            long sales = 0;
            BigDecimal revenue = BigDecimal.ZERO;
            BigDecimal cost = BigDecimal.ZERO;
            for (JsonNode row : rows) {
                sales += row.get("sales").asLong();
                revenue = revenue.add(row.get("total_revenue").decimalValue());
                cost = cost.add(row.get("cost").decimalValue());
            }
            assertEquals(whole.get("sales").asLong(), sales, g);
            assertEquals(0, whole.get("total_revenue").decimalValue().compareTo(revenue), g);
            assertEquals(0, whole.get("cost").decimalValue().compareTo(cost), g);
        }
        JsonNode weeks = result(Q + "&adLevelDateGroupingOption=week");
        assertEquals("2026-11-03", weeks.get(0).get("id").asText());
        assertEquals("2026-11-08", weeks.get(0).get("end_date").asText());
        assertEquals("2026-11-03 - 2026-11-08", weeks.get(0).get("name").asText());
    }

    @Test
    void options() {
        JsonNode visible = result(Q + "&reportSourceVisibility=true").get(0);
        assertEquals(3, visible.get("sales").asLong());
        JsonNode unique = result(Q + "&newCustomerConfiguration=only_unique_customers").get(0);
        assertEquals(2, unique.get("sales").asLong());
        money("60.00", unique.get("cost"));
        assertEquals(3, result(Q + "&ignoreRecurringSales=true").get(0).get("sales").asLong());
        money("235.00", result(Q + "&excludeHardCosts=true").get(0).get("total_revenue"));
        JsonNode twoAccounts = result(Q.replace("startDate=2026-11-03", "startDate=2026-11-01")).get(0);
        money("70.00", twoAccounts.get("cost"));
    }

    @Test
    void texts() {
        Response r = get(key, Q + "&adLevelDateGroupingOption=hour");
        assertEquals(400, r.status());
        assertEquals("Invalid adLevelDateGroupingOption: hour. Accepted values: ad_account, day, week, month, year", r.message());
        r = get(key, Q.replace(enc("\"act1\""), enc("\"act1\",\"act2\"")));
        assertEquals(400, r.status());
        assertEquals("ids must hold exactly one ad account id", r.message());
        r = get(key, Q.replace("&ids=" + enc("\"act1\""), ""));
        assertEquals("Missing required parameter: ids", r.message());
        r = get(key, Q.replace("last_click", "linear"));
        assertEquals("Invalid attributionModel: linear. Accepted values: last_click, first_click, scientific", r.message());
        r = get(key, Q.replace("act1", "nope"));
        assertEquals(400, r.status());
        assertEquals("Id not found at level account: nope", r.message());
        assertNull(get(key, Q).body().get("message"));
    }

    @Test
    void role() {
        String other = newAccount("UTC", List.of(Roles.GET_ATTRIBUTION));
        Response r = get(other, Q);
        assertEquals(403, r.status());
    }
}
