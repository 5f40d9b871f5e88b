package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.WriteRequest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution options over {@link ApiWrittenFixture} (written through the API): groupings, filters, metrics,
 * isAdAccountId paging, rule texts; and three small accounts of their own, written through the API too.
 */
@MicronautTest(transactional = false)
class AttributionOptionsTest extends ApiTest {

    String key;

    static final String BASE = "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-18";
    static final String ADS = BASE + "&level=facebook_ad&ids=" + enc("\"adA\",\"adB\",\"adC\"");

    @BeforeAll
    void data() {
        key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
    }

    private Map<String, JsonNode> rows(String query) {
        Response r = get(key, query);
        assertEquals(200, r.status(), r.raw());
        Map<String, JsonNode> out = new HashMap<>();
        r.body().get("result").forEach(row -> out.put(row.get("id").asText(), row));
        return out;
    }

    private void bad(String query, String message) {
        Response r = get(key, query);
        assertEquals(400, r.status(), r.raw());
        assertEquals(message, r.message());
    }

    private static void money(String want, JsonNode got) {
        assertNotNull(got);
        assertEquals(0, new java.math.BigDecimal(want).compareTo(got.decimalValue()), "expected " + want + ", got " + got);
    }

    @Test
    void weekBucketsAreIsoWeeksCutByTheRange() {
        Response r = get(key, ADS.replace("startDate=2026-11-01", "startDate=2026-11-03")
                + "&fields=sales,total_revenue,cost,leads,name&timeGroupingOption=week");
        assertEquals(200, r.status(), r.raw());
        JsonNode rows = r.body().get("result");
        assertEquals(3, rows.size(), r.raw());
        JsonNode first = rows.get(0);
        assertEquals("2026-11-03", first.get("id").asText());
        assertEquals("2026-11-03", first.get("start_date").asText());
        assertEquals("2026-11-08", first.get("end_date").asText());
        assertEquals("2026-11-03 - 2026-11-08", first.get("name").asText());
        assertEquals(1, first.get("sales").asLong());
        money("100.00", first.get("total_revenue"));
        money("0.00", first.get("cost"));
        assertEquals(0, first.get("leads").asLong());
        JsonNode second = rows.get(1);
        assertEquals("2026-11-09", second.get("id").asText());
        assertEquals("2026-11-15", second.get("end_date").asText());
        assertEquals(2, second.get("sales").asLong());
        money("130.00", second.get("total_revenue"));
        money("60.00", second.get("cost"));
        JsonNode last = rows.get(2);
        assertEquals("2026-11-16", last.get("start_date").asText());
        assertEquals("2026-11-18", last.get("end_date").asText());
        money("40.00", last.get("total_revenue"));
    }

    @Test
    void dayAndMonthBuckets() {
        Map<String, JsonNode> days = rows(ADS + "&fields=sales,cost&timeGroupingOption=day");
        assertEquals(List.of("2026-11-02", "2026-11-03", "2026-11-09", "2026-11-10", "2026-11-16", "2026-11-17"), days.keySet().stream().sorted().toList());
        money("10.00", days.get("2026-11-02").get("cost"));
        assertEquals("2026-11-02", days.get("2026-11-02").get("end_date").asText());
        Map<String, JsonNode> month = rows(ADS + "&fields=sales,cost,total_revenue&timeGroupingOption=month");
        JsonNode all = month.get("2026-11-01");
        assertEquals("2026-11-18", all.get("end_date").asText());
        assertEquals(4, all.get("sales").asLong());
        money("270.00", all.get("total_revenue"));
        money("70.00", all.get("cost"));
        Map<String, JsonNode> year = rows(ADS + "&fields=sales&timeGroupingOption=year");
        assertEquals("2026-11-01 - 2026-11-18", year.get("2026-11-01").get("name").asText());
    }

    @Test
    void newCustomerConfigurationNarrowsSalesNotSpend() {
        Map<String, JsonNode> unique = rows(ADS + "&fields=sales,total_revenue,cost,roas,leads&newCustomerConfiguration=only_unique_customers");
        assertEquals(1, unique.get("adA").get("sales").asLong());
        money("100.00", unique.get("adA").get("total_revenue"));
        money("30.00", unique.get("adA").get("cost"));
        money("3.33", unique.get("adA").get("roas"));
        assertEquals(0, unique.get("adB").get("sales").asLong());
        assertEquals(1, unique.get("adB").get("leads").asLong());
        money("40.00", unique.get("adB").get("cost"));
        Map<String, JsonNode> returning = rows(ADS + "&fields=sales,total_revenue&newCustomerConfiguration=only_returning_customers");
        assertEquals(1, returning.get("adA").get("sales").asLong());
        money("50.00", returning.get("adA").get("total_revenue"));
        assertEquals(1, returning.get("adB").get("sales").asLong());
        assertFalse(returning.containsKey("adC") && returning.get("adC").get("sales").asLong() > 0);
    }

    @Test
    void ignoreRecurringSalesAndExcludeHardCosts() {
        Map<String, JsonNode> once = rows(ADS + "&fields=sales,total_revenue,recurring_revenue&ignoreRecurringSales=true");
        assertEquals(1, once.get("adA").get("sales").asLong());
        money("0.00", once.get("adA").get("recurring_revenue"));
        Map<String, JsonNode> net = rows(ADS + "&fields=revenue,recurring_revenue,total_revenue&excludeHardCosts=true");
        money("65.00", net.get("adA").get("revenue"));
        money("115.00", net.get("adA").get("total_revenue"));
    }

    @Test
    void leadStageNarrowsLeadsAndSalesNotSpend() {
        Map<String, JsonNode> hot = rows(ADS + "&fields=sales,leads,cost&lead_stage=hot");
        assertEquals(2, hot.get("adA").get("sales").asLong());
        assertEquals(1, hot.get("adA").get("leads").asLong());
        assertEquals(0, hot.get("adB").get("sales").asLong());
        assertEquals(0, hot.get("adB").get("leads").asLong());
        money("40.00", hot.get("adB").get("cost"));
        assertFalse(hot.containsKey("adC"));
        Map<String, JsonNode> both = rows(ADS + "&fields=sales&lead_stage=" + enc("HOT, cold"));
        assertEquals(1, both.get("adB").get("sales").asLong());
        bad(ADS + "&fields=sales&lead_stage=hot,warm", "Invalid lead_stage: warm. Accepted values: Cold, Hot");
    }

    @Test
    void moreMetrics() {
        Map<String, JsonNode> r = rows(ADS + "&fields=refund_count,refund,refund_sales_percentage,refund_revenue_percentage,taxes,"
                + "shipping_value,cost_of_goods,hard_costs,gross_margins,net_profit,roi,new_customers_roas,name,parent_name,"
                + "impressions,cost_per_click,calls,qualified_calls,no_show_calls,cost_per_call,unique_calls,new_customers_percentage,"
                + "recurring_customers,cost_per_unique_sale,30_days_ltv");
        JsonNode a = r.get("adA");
        assertEquals(1, a.get("refund_count").asLong());
        money("30.00", a.get("refund"));
        money("50.00", a.get("refund_sales_percentage"));
        money("20.00", a.get("refund_revenue_percentage"));
        money("5.00", a.get("taxes"));
        money("10.00", a.get("shipping_value"));
        money("20.00", a.get("cost_of_goods"));
        money("2.00", a.get("hard_costs"));
        money("128.00", a.get("gross_margins"));
        money("83.00", a.get("net_profit"));
        money("400.00", a.get("roi"));
        money("3.33", a.get("new_customers_roas"));
        money("30.00", a.get("cost_per_click"));
        money("100.00", a.get("new_customers_percentage"));
        assertEquals(1, a.get("recurring_customers").asLong());
        money("30.00", a.get("cost_per_unique_sale"));
        // the spend file carries no names: an unnamed ad shows its id; the ad set is named after its source
        assertEquals("adA", a.get("name").asText());
        assertEquals("Set 1", a.get("parent_name").asText());
        assertTrue(a.get("impressions").isNull());
        assertTrue(a.get("30_days_ltv").isNull());
        JsonNode b = r.get("adB");
        assertEquals(1, b.get("calls").asLong());
        assertEquals(1, b.get("qualified_calls").asLong());
        money("40.00", b.get("cost_per_call"));
        JsonNode c = r.get("adC");
        assertEquals(1, c.get("no_show_calls").asLong());
        assertEquals(1, c.get("unique_calls").asLong());
        assertTrue(c.get("roi").isNull());
        assertTrue(c.get("cost_per_call").isNull() || c.get("cost_per_call").decimalValue().signum() == 0);
    }

    @Test
    void statusFiltersSourcesBySpend() {
        assertEquals(List.of("adA", "adB"), rows(ADS + "&fields=sales&status=active").keySet().stream().sorted().toList());
        assertEquals(List.of("adC"), rows(ADS + "&fields=sales&status=paused").keySet().stream().sorted().toList());
    }

    @Test
    void isAdAccountIdPagesTheSources() {
        String q = BASE + "&level=facebook_ad&fields=sales,cost&isAdAccountId=true&ids=" + enc("\"act1\"") + "&pageSize=2";
        Response first = get(key, q);
        assertEquals(200, first.status(), first.raw());
        assertEquals(List.of("adA", "adB"), ids(first));
        String next = first.body().get("nextPageId").asText();
        Response second = get(key, q + "&pageId=" + enc(next));
        assertEquals(200, second.status(), second.raw());
        // the sources of act1 at ad level: the three ads of the spend file (one import, so ordered by id), then the
        // source entry "set1" its source "Set 1" added
        assertEquals(List.of("adC", "set1"), ids(second));
        assertNull(second.body().get("nextPageId"));
        assertEquals(List.of("set1", "adC"), ids(get(key, q + "&newestFirst=true")));
        assertEquals(List.of("set1", "set2"), ids(get(key, q.replace("facebook_ad", "facebook_adset"))));
        bad(q + "&pageId=forged", "Invalid pageId");
        bad(q.replace("pageSize=2", "pageSize=3") + "&pageId=" + enc(next), "Invalid pageId");
        Response none = get(key, q.replace("act1", "nope"));
        assertEquals(200, none.status(), none.raw());
        assertEquals("Ad account not found at level facebook_ad: nope", none.message());
        assertEquals(400, get(key, q.replace("pageSize=2", "pageSize=251")).status());
    }

    private static List<String> ids(Response r) {
        List<String> out = new ArrayList<>();
        r.body().get("result").forEach(row -> out.add(row.get("id").asText()));
        return out;
    }

    @Test
    void ruleTexts() {
        String ok = ADS + "&fields=sales";
        bad(ok + "&timeGroupingOption=quarter", "Invalid timeGroupingOption: quarter. Accepted values: source_link, day, week, month, year");
        bad(ok + "&status=active&timeGroupingOption=day", "status is only supported with timeGroupingOption source_link");
        bad(ok + "&status=live", "Invalid status: live. Accepted values: active, paused");
        bad(BASE + "&level=facebook_ad&fields=sales&ids=" + enc("\"act1\"") + "&isAdAccountId=true&timeGroupingOption=week",
                "isAdAccountId is not supported with timeGroupingOption week");
        bad(ok + "&isAdAccountId=true", "With isAdAccountId=true, ids must hold exactly one ad account id");
        bad(BASE + "&level=google_keyword&fields=sales&ids=" + enc("\"act1\"") + "&isAdAccountId=true",
                "isAdAccountId is not supported at level google_keyword");
        bad(BASE + "&level=google_v2_keyword&fields=sales", "Missing required parameter: keywordsIds");
        bad(ok + "&newCustomerConfiguration=new_only",
                "Invalid newCustomerConfiguration: new_only. Accepted values: all_customers, only_returning_customers, only_unique_customers");
        bad(ok + "&forecastingOption=ltv", "Invalid forecastingOption: ltv. Accepted values: first_sale, total_sales");
        bad(ok.replace("fields=sales", "fields=sales,bogus"), "Invalid field: bogus");
        assertEquals(200, get(key, ok + "&forecastingOption=total_sales").status());
    }

    /**
     * The fixture plus a FACEBOOK source "Promo" on set2 (act1, camp1) and two custom costs on its tag: DAILY 3.00 from
     * 11-16 (open end: 11-16..11-18 = 9.00) and ONE_TIME 7.00 on 11-17 over @promo and @nomatch (3.50 each, @nomatch
     * names no source). The cost is the source's, so it lands on its source entry "set2" and the ad set set2 above it,
     * never on the real ad adC of that ad set (docs/attribution-models.md "The ad hierarchy the API writes").
     */
    @Test
    void customCostsAreCostOfTheSourcesTheirTagsName() {
        String other = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(other, ApiWrittenFixture.SPEND);
        List<List<WriteRequest>> phases = new ArrayList<>(ApiWrittenFixture.phases(other));
        phases.add(List.of(new WriteRequest(other, "POST", "/api/v1.0/sources", "{\"name\":\"Promo\",\"integrationType\":\"FACEBOOK\","
                        + "\"adSourceId\":\"set2\",\"accountId\":\"act1\",\"campaignId\":\"camp1\"}"),
                new WriteRequest(other, "POST", "/api/v1.0/custom-costs", "{\"name\":\"Agency\",\"cost\":3.00,\"frequency\":\"DAILY\","
                        + "\"startDate\":\"2026-11-16\",\"tags\":[\"@promo\"]}"),
                new WriteRequest(other, "POST", "/api/v1.0/custom-costs", "{\"cost\":7.00,\"frequency\":\"ONE_TIME\","
                        + "\"startDate\":\"2026-11-17T09:00:00\",\"tags\":[\"@promo\",\"@nomatch\"]}")));
        writePhases(phases);
        Response r = get(other, BASE + "&level=facebook_ad&ids=" + enc("\"adA\",\"adC\",\"set2\"") + "&fields=cost,roi");
        assertEquals(200, r.status(), r.raw());
        Map<String, JsonNode> rows = new HashMap<>();
        r.body().get("result").forEach(row -> rows.put(row.get("id").asText(), row));
        money("12.50", rows.get("set2").get("cost"));
        money("0.00", rows.get("adC").get("cost"));
        money("30.00", rows.get("adA").get("cost"));
        String sets = BASE + "&level=facebook_adset&ids=" + enc("\"set1\",\"set2\"");
        Response adSets = get(other, sets + "&fields=cost,roi");
        assertEquals(200, adSets.status(), adSets.raw());
        JsonNode set2 = adSets.body().get("result").get(1);
        assertEquals("set2", set2.get("id").asText());
        money("12.50", set2.get("cost"));
        money("220.00", set2.get("roi"));
        Response weeks = get(other, sets + "&fields=cost&timeGroupingOption=week");
        JsonNode last = weeks.body().get("result").get(weeks.body().get("result").size() - 1);
        assertEquals("2026-11-16", last.get("id").asText());
        money("12.50", last.get("cost"));
        // status looks at ad spend only: set2 has custom costs and no spend in the range
        Response paused = get(other, sets + "&fields=cost&status=paused");
        assertEquals(List.of("set2"), ids(paused));
    }

    @Test
    void bucketsFollowTheAccountTimeZone() {
        String ny = newUnthrottledAccount("America/New_York", Roles.ALL);
        // 2026-11-10 03:00 UTC is 2026-11-09 22:00 in New York: a Monday-week bucket of 11-09, day bucket 11-09
        writePhases(List.of(
                List.of(new WriteRequest(ny, "POST", "/api/v1.0/clicks", ApiWrittenFixture.click("lz@x.test", "sZ", "adZ", "2026-11-01T12:00:00Z", "@z"))),
                List.of(new WriteRequest(ny, "POST", "/api/v1.0/orders", "{\"orderId\":\"oZ\",\"email\":\"lz@x.test\",\"date\":\"2026-11-10T03:00:00Z\","
                        + "\"items\":[{\"name\":\"Course Z\",\"price\":10.00}]}"))));
        String q = BASE + "&level=facebook_ad&ids=" + enc("\"adZ\"") + "&fields=sales&timeGroupingOption=";
        Response day = get(ny, q + "day");
        assertEquals(200, day.status(), day.raw());
        assertEquals(List.of("2026-11-01", "2026-11-09"), ids(day));
        assertEquals(1, day.body().get("result").get(1).get("sales").asLong());
        Response week = get(ny, q + "week");
        assertEquals(List.of("2026-11-01", "2026-11-09"), ids(week));
        assertEquals("2026-11-01", week.body().get("result").get(0).get("end_date").asText());
    }

    @Test
    void unknownIdsAreSkippedAndNamed() {
        Response r = get(key, BASE + "&level=facebook_ad&fields=sales&ids=" + enc("\"adA\",\"ghost\""));
        assertEquals(200, r.status(), r.raw());
        assertEquals(List.of("adA"), ids(r));
        assertEquals("Id not found at level facebook_ad: ghost", r.message());
    }

    /**
     * Keyword levels on a Google account written through the API: clicks belong to a keyword by the kwd- id of their targetid,
     * the models credit whole sales, spend stays null, the keyword text names the row and the ad group is its parent.
     */
    @Test
    void keywordRowsComeFromTheTargetidOfTheTrackedUrl() {
        String kwKey = newUnthrottledAccount("UTC", Roles.ALL);
        // the spend file registers the keywords of ad group G1 (a row's keyword_id/keyword/match_type); the source
        // "Brand" names the ad group
        importSpend(kwKey, """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,keyword_id,keyword,match_type
                GOOGLE,gact,gc,G1,gadA,2026-11-02,30.00,111,shoes,EXACT
                GOOGLE,gact,gc,G1,gadA,2026-10-15,0.00,112,red shoes,EXACT
                """);
        List<WriteRequest> clicks = new ArrayList<>();
        for (String[] c : new String[][]{{"l1@x.test", "2026-11-02T10:00:00Z", "&targetid=kwd-111"}, {"l1@x.test", "2026-11-03T10:00:00Z", "&targetid=aud-5%3Akwd-112"},
                {"l2@x.test", "2026-11-04T10:00:00Z", ""}}) {
            clicks.add(new WriteRequest(kwKey, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/?gclid=g" + c[2] + "\",\"email\":\"" + c[0]
                    + "\",\"date\":\"" + c[1] + "\",\"integrationType\":\"GOOGLE\",\"adSourceId\":\"G1\",\"adspendAdId\":\"gadA\"}"));
        }
        writePhases(List.of(
                List.of(new WriteRequest(kwKey, "POST", "/api/v1.0/sources", "{\"name\":\"Brand\",\"integrationType\":\"GOOGLE\",\"adSourceId\":\"G1\","
                        + "\"accountId\":\"gact\",\"campaignId\":\"gc\",\"adspendSubType\":\"DISPLAY\"}")),
                clicks,
                List.of(new WriteRequest(kwKey, "POST", "/api/v1.0/orders", "{\"orderId\":\"os1\",\"email\":\"l1@x.test\",\"date\":\"2026-11-05T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Shoes one\",\"price\":100.00}]}"),
                        new WriteRequest(kwKey, "POST", "/api/v1.0/orders", "{\"orderId\":\"os2\",\"email\":\"l2@x.test\",\"date\":\"2026-11-06T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Shoes two\",\"price\":40.00}]}"))));
        String q = "/api/v1.0/attribution?startDate=2026-11-01&endDate=2026-11-18&level=google_keyword&keywordsIds=" + enc("G1:[111,112]")
                + "&fields=name,parent_name,sales,revenue,customers,leads,clicks,cost,roas,cac&attributionModel=";
        Response last = get(kwKey, q + "last_click");
        assertEquals(200, last.status(), last.raw());
        assertEquals(2, last.body().get("result").size(), last.raw());
        JsonNode k111 = last.body().get("result").get(0);
        JsonNode k112 = last.body().get("result").get(1);
        assertEquals("111", k111.get("id").asText());
        assertEquals("G1", k111.get("adgroupId").asText());
        assertEquals("shoes", k111.get("name").asText());
        assertEquals("Brand", k111.get("parent_name").asText());
        assertEquals(0, k111.get("sales").asLong(), "the last click of L1 is on keyword 112");
        assertEquals(1, k111.get("clicks").asLong());
        assertEquals(1, k111.get("leads").asLong());
        assertEquals(1, k112.get("sales").asLong());
        money("100.00", k112.get("revenue"));
        assertEquals(1, k112.get("customers").asLong());
        for (String f : List.of("cost", "roas", "cac")) {
            assertTrue(k112.get(f).isNull(), f + " has no spend per keyword: " + last.raw());
        }
        Response first = get(kwKey, q + "first_click");
        JsonNode f111 = first.body().get("result").get(0);
        assertEquals(1, f111.get("sales").asLong(), first.raw());
        money("100.00", f111.get("revenue"));
        // L2's sale has no keyword on its click: no row has it, under any model
        Response sci = get(kwKey, q + "scientific");
        double sold = 0;
        for (JsonNode row : sci.body().get("result")) {
            sold += row.get("sales").asDouble();
        }
        assertEquals(1.0, sold, 1e-9, sci.raw());
    }
}
