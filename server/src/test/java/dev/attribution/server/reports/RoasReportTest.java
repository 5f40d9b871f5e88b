package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution/roas on a small account written through the API (numbers worked out by hand in the comments),
 * level resolution, the absent result, a cross-check against GET /attribution with the same preset, and every error
 * text.
 */
@MicronautTest(transactional = false)
class RoasReportTest extends ApiTest {

    String key;

    /*
     * Ads ad1, ad2 in set1; ad3 in set2; all in camp1 and ad account acct1; ad4 (set2) has no data.
     * L1: click ad1 11-02, first sale 11-03 $100, rebill 11-10 $30.   L2: click ad2 10-28, first sale 11-04 $50.
     * L3: click ad1 11-05, sale 11-20 $80 (not first: existing customer).   L4: click ad3 11-06, first sale 11-07 $200.
     * L5: organic click 11-08 then sale 11-09 $500 (credited to no ad).
     * Spend: ad1 11-02 $40, 11-03 $60 (reported 2 conversions, $150); ad2 11-04 $25; ad3 11-06 $10; ad1 10-20 $999 (out of range).
     *
     * Written as an integration partner writes it (issue 20): POST /sources for the ad sets set1 and set2 (ad account
     * acct1, campaign camp1), POST /clicks naming the ads, POST /orders (L3's earlier order on 10-01, before any click
     * of L3, makes its 11-20 sale a returning customer's; the rebill is an isRebill item), the spend through the
     * ad-spend import endpoint (ad4 registered by a $0 row in August). No row is inserted by hand; the same numbers as
     * hand-built ClickHouse rows remain in RoasCurveCompatibilityTest, which runs the report on two
     * bare engines.
     */
    @BeforeAll
    void data() {
        key = ReportExamples.roas(this);
    }

    private Response roas(String params) {
        return get(key, "/api/v1.0/attribution/roas?" + params);
    }

    private JsonNode result(String id, String level, String basis) {
        Response r = roas("id=" + id + "&level=" + level + "&startDate=2026-11-01&endDate=2026-11-15" + (basis == null ? "" : "&basis=" + basis));
        assertEquals(200, r.status(), r.raw());
        assertTrue(r.body().has("request_id"), r.raw());
        JsonNode result = r.body().get("result");
        assertTrue(result != null && result.isObject(), r.raw());
        return result;
    }

    /** Asserts every field of the fixed set; null expected values must be present as JSON null. */
    private static void expect(JsonNode result, String id, String roas, String ncRoas, String revenue, String recurring, String total,
                               String cost, long uniqueSales, long uniqueCustomers, String reported, String reportedVsRevenue) {
        assertEquals(List.of("id", "roas", "new_customers_roas", "revenue", "recurring_revenue", "total_revenue", "cost",
                "unique_sales", "unique_customers", "reported_result", "reported_vs_revenue"), fieldNames(result), result.toString());
        assertEquals(id, result.get("id").asText());
        money(roas, result.get("roas"), "roas " + result);
        money(ncRoas, result.get("new_customers_roas"), "new_customers_roas " + result);
        money(revenue, result.get("revenue"), "revenue " + result);
        money(recurring, result.get("recurring_revenue"), "recurring_revenue " + result);
        money(total, result.get("total_revenue"), "total_revenue " + result);
        money(cost, result.get("cost"), "cost " + result);
        assertEquals(uniqueSales, result.get("unique_sales").asLong(), result.toString());
        assertEquals(uniqueCustomers, result.get("unique_customers").asLong(), result.toString());
        money(reported, result.get("reported_result"), "reported_result " + result);
        money(reportedVsRevenue, result.get("reported_vs_revenue"), "reported_vs_revenue " + result);
    }

    static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void adClickDateBasis() {
        // Credited clicks in range: L1 (100 first + 30 rebill), L3 (80, sold after endDate but clicked in range).
        // revenue 180, recurring 30, total 210, cost 40+60 = 100 → roas 2.10; first-purchase revenue 100 → 1.00;
        // reported 2 conversions, $150 reported / $210 tracked = 0.714 → 0.71.
        expect(result("ad1", "ad", null), "ad1", "2.10", "1.00", "180.00", "30.00", "210.00", "100.00", 2, 1, "2.00", "0.71");
        expect(result("ad1", "ad", "click_date"), "ad1", "2.10", "1.00", "180.00", "30.00", "210.00", "100.00", 2, 1, "2.00", "0.71");
    }

    @Test
    void adSaleDateBasis() {
        // Sales dated in range credited to ad1: L1's 100 + 30; L3's sale (11-20) is out. 130/100 = 1.30; 150/130 = 1.15.
        expect(result("ad1", "ad", "sale_date"), "ad1", "1.30", "1.00", "100.00", "30.00", "130.00", "100.00", 1, 1, "2.00", "1.15");
    }

    @Test
    void sourceLinkLevel() {
        // set1 = ad1 + ad2. Click basis: L2's click (10-28) is out → as ad1, cost 125: 210/125 = 1.68, 100/125 = 0.80.
        expect(result("set1", "source_link", null), "set1", "1.68", "0.80", "180.00", "30.00", "210.00", "125.00", 2, 1, "2.00", "0.71");
        // Sale basis: L1 100 + 30, L2 50 → 180/125 = 1.44; first purchases 150/125 = 1.20; 150/180 = 0.83.
        expect(result("set1", "source_link", "sale_date"), "set1", "1.44", "1.20", "150.00", "30.00", "180.00", "125.00", 2, 2, "2.00", "0.83");
    }

    @Test
    void campaignAndAccountLevels() {
        // camp1 (all ads), click basis: + L4 200 → revenue 380, total 410, cost 135: 410/135 = 3.037 → 3.04;
        // first purchases 300/135 = 2.22; 150/410 = 0.366 → 0.37.
        expect(result("camp1", "campaign", null), "camp1", "3.04", "2.22", "380.00", "30.00", "410.00", "135.00", 3, 2, "2.00", "0.37");
        expect(result("acct1", "account", null), "acct1", "3.04", "2.22", "380.00", "30.00", "410.00", "135.00", 3, 2, "2.00", "0.37");
        // Sale basis: L1 130, L2 50, L4 200 → 330 + 50 = 380 total: revenue 350, recurring 30; firsts 350/135 = 2.59.
        expect(result("camp1", "campaign", "sale_date"), "camp1", "2.81", "2.59", "350.00", "30.00", "380.00", "135.00", 3, 3, "2.00", "0.39");
    }

    @Test
    void resultAbsentWithoutRow() {
        Response r = roas("id=ad4&level=ad&startDate=2026-11-01&endDate=2026-11-15");
        assertEquals(200, r.status(), r.raw());
        assertTrue(r.body().has("request_id"));
        assertFalse(r.body().has("result"), r.raw());
        Response september = roas("id=ad1&level=ad&startDate=2026-09-01&endDate=2026-09-30&basis=sale_date");
        assertEquals(200, september.status(), september.raw());
        assertFalse(september.body().has("result"), september.raw());
    }

    @Test
    void spendWithoutSales() {
        // ad2 on 11-04, click basis: spend $25, no click or sale credited that day → roas 0.00, reported_vs_revenue null (no revenue).
        Response r = roas("id=ad2&level=ad&startDate=2026-11-04&endDate=2026-11-04&basis=click_date");
        assertEquals(200, r.status(), r.raw());
        expect(r.body().get("result"), "ad2", "0.00", "0.00", "0.00", "0.00", "0.00", "25.00", 0, 0, "0.00", null);
        // A click in range and no spend: roas and new_customers_roas null.
        Response noSpend = roas("id=ad1&level=ad&startDate=2026-11-05&endDate=2026-11-05");
        assertEquals(200, noSpend.status(), noSpend.raw());
        expect(noSpend.body().get("result"), "ad1", null, null, "80.00", "0.00", "80.00", "0.00", 1, 0, null, null);
    }

    @Test
    void sameNumbersAsAttributionEndpoint() {
        String fields = "revenue,recurring_revenue,total_revenue,cost,unique_sales,unique_customers,roas";
        String[][] cases = {{"ad1", "ad", "facebook_ad"}, {"set1", "source_link", "facebook_adset"}, {"camp1", "campaign", "facebook_campaign"}};
        for (String[] c : cases) {
            for (boolean clickBasis : new boolean[]{true, false}) {
                Response a = get(key, "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-15&level="
                        + c[2] + "&fields=" + fields + "&ids=" + list(c[0]) + "&dayOfAttribution=" + clickBasis);
                assertEquals(200, a.status(), a.raw());
                JsonNode row = a.body().get("result").get(0);
                JsonNode mine = result(c[0], c[1], clickBasis ? "click_date" : "sale_date");
                for (String f : fields.split(",")) {
                    assertEquals(0, row.get(f).decimalValue().compareTo(mine.get(f).decimalValue()), c[0] + " " + f + " " + row + " vs " + mine);
                }
            }
        }
    }

    private void bad(String params, String message) {
        Response r = roas(params);
        assertEquals(400, r.status(), params + ": " + r.raw());
        assertEquals(message, r.message(), params);
    }

    @Test
    void errors() {
        String ok = "id=ad1&level=ad&startDate=2026-11-01&endDate=2026-11-15";
        bad(ok.replace("id=ad1", "id=nope"), "Id not found at level ad: nope");
        // an id of another level (set1 would be found: the source's own entry is an ad of its own, design-hierarchy.md)
        bad(ok.replace("id=ad1", "id=camp1"), "Id not found at level ad: camp1");
        bad(ok.replace("level=ad", "level=campaign"), "Id not found at level campaign: ad1");
        bad(ok.replace("level=ad", "level=facebook_ad"), "Invalid level: facebook_ad. Accepted values: ad, source_link, campaign, account");
        bad(ok + "&basis=day", "Invalid basis: day. Accepted values: click_date, sale_date");
        bad(ok.replace("id=ad1&", ""), "Missing required parameter: id");
        bad(ok.replace("&level=ad", ""), "Missing required parameter: level");
        bad(ok.replace("&startDate=2026-11-01", ""), "Missing required parameter: startDate");
        bad(ok.replace("&endDate=2026-11-15", ""), "Missing required parameter: endDate");
        bad(ok + "&fields=roas", "Unknown parameter: fields");
        bad(ok + "&id=ad2", "Duplicate parameter: id");
        bad(ok.replace("endDate=2026-11-15", "endDate=2099-01-01"), "startDate or endDate cannot be in the future.");
        bad(ok.replace("startDate=2026-11-01", "startDate=" + enc("2026-11-01T00:00:00+01:00")), "There was a problem processing the date in the request.");
        bad(ok.replace("startDate=2026-11-01", "startDate=" + enc("2026-11-01T00:00:00.500")), "Invalid start date");
        bad(ok.replace("startDate=2026-11-01", "startDate=2026-11-20"), "startDate cannot be later than endDate");
        bad(ok.replace("startDate=2026-11-01", "startDate=01/11/2026"), "Invalid date format.");
    }

    @Test
    void role() {
        String other = newAccount("UTC", List.of(Roles.GET_ATTRIBUTION));
        Response r = get(other, "/api/v1.0/attribution/roas?id=ad1&level=ad&startDate=2026-11-01&endDate=2026-11-15");
        assertEquals(403, r.status(), r.raw());
        assertTrue(r.message().contains("Get ROAS"), r.raw());
    }
}
