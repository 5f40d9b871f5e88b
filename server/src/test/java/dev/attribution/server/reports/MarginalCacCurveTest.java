package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static dev.attribution.server.reports.RoasReportTest.money;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution/marginal-cac-curve on a hand-computed example (docs/marginal-cac.md): buckets, average and marginal
 * CAC, saturation point, both ceilings, each note, every level, the defaults and every error text.
 */
@MicronautTest(transactional = false)
class MarginalCacCurveTest extends ApiTest {

    String key;
    /** Ad set id → the tag of its source. */
    final java.util.Map<String, String> tags = new java.util.HashMap<>();

    /*
     * m_ad1 (set m_set1 "Curve Set", campaign m_camp1, ad account m_acct), January 2026, spend → new customers
     * (each a lead clicking m_ad1 at 10:00 and buying, first purchase $50, at 11:00 the same day):
     *   01-01 $40 → 1 (n01)   01-02 $9 → 1 (n02)   01-03 $20 → 2   01-04 $11 → 1   01-05 $39 → 2
     *   01-06 $19 → 1         01-07 $10 → 1        01-08 $41 → 1   01-09 $21 → 1   01-10 no spend → 1 (not sampled)
     * n02 also clicks m_other (set m_set2, campaign m_camp1) on 01-03 09:00 and buys at 12:00: first_click credits m_ad1,
     * last_click m_other.
     * n01 rebills $20 on 01-11 and buys $30 on 02-15. r1 (an existing customer: its first order, $15 on 2025-12-01, came
     * before any click) buys via m_ad1 on 01-05, not a first purchase.
     * m_ad1 spends $500 on 02-01 (out of range). m_ad2 (set m_set3, campaign m_camp2): $5, $6, $7, $8 on 01-01..01-04, no customers.
     * Sorted sampled days of m_ad1: [9 10 11] [19 20 21] [39 40 41], customers 3 | 4 | 4:
     *   spendPerDay 10 / 20 / 40, avgCac 30/3 = 10, 60/4 = 15, 120/4 = 30,
     *   marginal(1) = (20 - 10) / (4/3 - 3/3) = 30, marginal(2) = null (customers per day did not rise).
     * LTV (first_click cohort of m_ad1: 12 leads): 30 days (12*50 + 20)/12 = 51.67; 90 days (12*50 + 20 + 30)/12 = 54.17.
     *
     * Written as an integration partner writes it (issue 20), no row inserted by hand: POST /sources for the ad sets
     * m_set1 and m_set2 (ad account m_acct, campaign m_camp1), POST /clicks naming the ads (adspendAdId), POST /orders
     * (n01's rebill an isRebill item), the spend through POST /ad-spend/import (which registers m_set3, m_camp2 and m_ad2).
     * The API names no ad and no campaign (a source names its ad set; the spend file carries ids only), so the ad and
     * the campaign are named by their ids, as GET /attribution names them. The same example as hand-built ClickHouse rows is RoasCurveCompatibilityTest's
     * (two bare engines, no API).
     */
    @BeforeAll
    void data() {
        ReportExamples.Curve example = ReportExamples.curve(this);
        key = example.key();
        tags.putAll(example.tags());
    }

    private Response curve(String params) {
        return get(key, "/api/v1.0/attribution/marginal-cac-curve?" + params);
    }

    private JsonNode ok(String params) {
        Response r = curve(params);
        assertEquals(200, r.status(), params + ": " + r.raw());
        assertTrue(r.body().has("request_id"), r.raw());
        JsonNode result = r.body().get("result");
        assertEquals(List.of("id", "level", "name", "startDate", "endDate", "attributionModel", "daysSampled", "cacCeiling",
                "ceilingBasis", "ltvWindow", "curve", "saturationPoint", "notes"), RoasReportTest.fieldNames(result), r.raw());
        return result;
    }

    /** Each bucket as "spendPerDay days newCustomers avgCac marginalCac" (null as "null"). */
    private static List<String> buckets(JsonNode result) {
        List<String> out = new ArrayList<>();
        for (JsonNode b : result.get("curve")) {
            assertEquals(List.of("spendPerDay", "days", "newCustomers", "avgCac", "marginalCac"), RoasReportTest.fieldNames(b), b.toString());
            out.add(text(b.get("spendPerDay")) + " " + b.get("days").asInt() + " " + b.get("newCustomers").asLong()
                    + " " + text(b.get("avgCac")) + " " + text(b.get("marginalCac")));
        }
        return out;
    }

    private static String text(JsonNode n) {
        return n.isNull() ? "null" : n.decimalValue().setScale(2, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    private static String saturation(JsonNode result) {
        JsonNode s = result.get("saturationPoint");
        return s.isNull() ? "null" : text(s.get("efficientSpendPerDay")) + " " + text(s.get("saturatedSpendPerDay")) + " " + s.get("reason").asText();
    }

    private static List<String> notes(JsonNode result) {
        List<String> out = new ArrayList<>();
        result.get("notes").forEach(n -> out.add(n.asText()));
        return out;
    }

    static final String JANUARY = "&startDate=2026-01-01&endDate=2026-01-10";

    @Test
    void callerCeiling() {
        JsonNode r = ok("id=m_ad1&level=ad" + JANUARY + "&cacCeiling=25");
        assertEquals("m_ad1", r.get("id").asText());
        assertEquals("AD", r.get("level").asText());
        assertEquals("m_ad1", r.get("name").asText(), "an ad the API registered unnamed is named by its id");
        assertEquals("2026-01-01", r.get("startDate").asText());
        assertEquals("2026-01-10", r.get("endDate").asText());
        assertEquals("FIRST_CLICK", r.get("attributionModel").asText());
        assertEquals(9, r.get("daysSampled").asInt());
        money("25", r.get("cacCeiling"), "cacCeiling");
        assertEquals("CALLER_PROVIDED", r.get("ceilingBasis").asText());
        assertTrue(r.get("ltvWindow").isNull());
        assertEquals(List.of("10.00 3 3 10.00 null", "20.00 3 4 15.00 30.00", "40.00 3 4 30.00 null"), buckets(r));
        // marginal 30 > 25 at 20/day, and 40/day brings no extra customers: saturated from 20/day on.
        assertEquals("10.00 20.00 MARGINAL_CAC_ABOVE_CEILING", saturation(r));
        assertEquals(List.of(), notes(r));
        // Ceiling 50: 20/day is still efficient; 40/day buys no extra customer per day.
        assertEquals("20.00 40.00 EXTRA_SPEND_WITHOUT_CUSTOMERS", saturation(ok("id=m_ad1&level=ad" + JANUARY + "&cacCeiling=50")));
        // Ceiling 0: every extra dollar is above it.
        JsonNode zero = ok("id=m_ad1&level=ad" + JANUARY + "&cacCeiling=0");
        money("0", zero.get("cacCeiling"), "cacCeiling");
        assertEquals("10.00 20.00 MARGINAL_CAC_ABOVE_CEILING", saturation(zero));
    }

    @Test
    void ltvCeiling() {
        JsonNode r = ok("id=m_ad1&level=ad" + JANUARY);
        money("54.17", r.get("cacCeiling"), "cacCeiling");
        assertEquals("LTV_BREAKEVEN", r.get("ceilingBasis").asText());
        assertEquals("90_days", r.get("ltvWindow").asText());
        assertEquals("20.00 40.00 EXTRA_SPEND_WITHOUT_CUSTOMERS", saturation(r));
        JsonNode thirty = ok("id=m_ad1&level=ad" + JANUARY + "&ltvWindow=30_days");
        money("51.67", thirty.get("cacCeiling"), "cacCeiling");
        assertEquals("30_days", thirty.get("ltvWindow").asText());
        // A caller's ceiling overrides the LTV one even when ltvWindow is sent.
        JsonNode both = ok("id=m_ad1&level=ad" + JANUARY + "&ltvWindow=30_days&cacCeiling=12.5");
        money("12.5", both.get("cacCeiling"), "cacCeiling");
        assertEquals("CALLER_PROVIDED", both.get("ceilingBasis").asText());
        assertTrue(both.get("ltvWindow").isNull());
    }

    @Test
    void lastClick() {
        // n02 is credited to m_other: the cheapest bucket has 2 customers; marginal(1) = 10 / (4/3 - 2/3) = 15.
        JsonNode r = ok("id=m_ad1&level=ad" + JANUARY + "&attributionModel=last_click&cacCeiling=25");
        assertEquals("LAST_CLICK", r.get("attributionModel").asText());
        assertEquals(List.of("10.00 3 2 15.00 null", "20.00 3 4 15.00 15.00", "40.00 3 4 30.00 null"), buckets(r));
        assertEquals("20.00 40.00 EXTRA_SPEND_WITHOUT_CUSTOMERS", saturation(r));
        // LTV cohort without n02: 11 leads, (11*50 + 20)/11 = 51.82 over 30 days.
        money("51.82", ok("id=m_ad1&level=ad" + JANUARY + "&attributionModel=last_click&ltvWindow=30_days").get("cacCeiling"), "ltv");
    }

    @Test
    void insufficientData() {
        // 3 sampled days (9, 20, 40) → one bucket: 69/3 = 23.00 per day, 4 customers, 69/4 = 17.25.
        JsonNode r = ok("id=m_ad1&level=ad&startDate=2026-01-01&endDate=2026-01-03&cacCeiling=25");
        assertEquals(3, r.get("daysSampled").asInt());
        assertEquals(List.of("23.00 3 4 17.25 null"), buckets(r));
        assertEquals("null", saturation(r));
        assertEquals(List.of("INSUFFICIENT_DATA"), notes(r));
    }

    @Test
    void noCustomersAndNoLtv() {
        JsonNode r = ok("id=m_ad2&level=ad" + JANUARY);
        assertEquals(List.of("5.50 2 0 null null", "7.50 2 0 null null"), buckets(r));
        assertEquals("null", saturation(r));
        assertEquals(List.of("NO_CUSTOMERS", "LTV_CEILING_UNAVAILABLE"), notes(r));
        assertTrue(r.get("cacCeiling").isNull());
        assertTrue(r.get("ceilingBasis").isNull());
        assertTrue(r.get("ltvWindow").isNull());
    }

    @Test
    void noSpendDataAndDefaults() {
        // Defaults: the 90 days up to today, which hold no spend of m_ad1 (all in January and February 2026).
        JsonNode r = ok("id=m_ad1&level=ad");
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        assertEquals(today.toString(), r.get("endDate").asText());
        assertEquals(today.minusDays(90).toString(), r.get("startDate").asText());
        assertEquals(0, r.get("daysSampled").asInt());
        assertEquals(0, r.get("curve").size());
        assertEquals("null", saturation(r));
        assertEquals(List.of("NO_SPEND_DATA"), notes(r));
        money("54.17", r.get("cacCeiling"), "LTV ceiling does not depend on the range");
        // Only endDate: startDate is 90 days before it.
        JsonNode end = ok("id=m_ad1&level=ad&endDate=2026-01-10&cacCeiling=25");
        assertEquals("2025-10-12", end.get("startDate").asText());
        assertEquals(9, end.get("daysSampled").asInt());
    }

    @Test
    void levels() {
        JsonNode set = ok("id=m_set1&level=source_link" + JANUARY + "&cacCeiling=25");
        assertEquals("SOURCE_LINK", set.get("level").asText());
        assertEquals("Curve Set", set.get("name").asText());
        assertEquals(List.of("10.00 3 3 10.00 null", "20.00 3 4 15.00 30.00", "40.00 3 4 30.00 null"), buckets(set));
        JsonNode camp = ok("id=m_camp1&level=campaign" + JANUARY + "&cacCeiling=25");
        assertEquals("CAMPAIGN", camp.get("level").asText());
        assertEquals("m_camp1", camp.get("name").asText(), "a campaign the API registered unnamed is named by its id");
        assertEquals(9, camp.get("daysSampled").asInt());
        // Account: m_ad1 + m_ad2 spend; days 01-01..01-04 add 5, 6, 7, 8. Sorted: [10 15 19(01-04)] [19(01-06) 21 27] [39 41 45],
        // customers 3 | 4 | 4: spend 44, 67, 125 → 14.67, 22.33, 41.67; avg 14.67, 16.75, 31.25; marginal (67-44)/(4-3) = 23.00.
        JsonNode acct = ok("id=m_acct&level=account" + JANUARY);
        assertEquals("ACCOUNT", acct.get("level").asText());
        assertTrue(acct.get("name").isNull());
        assertEquals(List.of("14.67 3 3 14.67 null", "22.33 3 4 16.75 23.00", "41.67 3 4 31.25 null"), buckets(acct));
        assertEquals("22.33 41.67 EXTRA_SPEND_WITHOUT_CUSTOMERS", saturation(acct));
        assertTrue(acct.get("cacCeiling").isNull());
        assertTrue(acct.get("ceilingBasis").isNull());
        assertTrue(acct.get("ltvWindow").isNull());
        assertEquals(List.of(), notes(acct));
        money("20", ok("id=m_acct&level=account" + JANUARY + "&cacCeiling=20").get("cacCeiling"), "account ceiling");
        // Exactly 90 days is accepted (and takes in the $500 of 02-01: 10 sampled days).
        assertEquals(10, ok("id=m_acct&level=account&startDate=2026-01-01&endDate=2026-04-01").get("daysSampled").asInt());
    }

    private void bad(String params, String message) {
        Response r = curve(params);
        assertEquals(400, r.status(), params + ": " + r.raw());
        assertEquals(message, r.message(), params);
    }

    @Test
    void errors() {
        String ok = "id=m_ad1&level=ad" + JANUARY;
        bad(ok.replace("id=m_ad1", "id=nope"), "Id not found at level ad: nope");
        bad(ok.replace("level=ad", "level=campaign"), "Id not found at level campaign: m_ad1");
        bad(ok.replace("level=ad", "level=adset"), "Invalid level: adset. Accepted values: ad, source_link, campaign, account");
        bad(ok + "&attributionModel=scientific", "Invalid attributionModel: scientific. Accepted values: first_click, last_click");
        bad(ok + "&ltvWindow=2_years", "Invalid ltvWindow: 2_years. Accepted values: 30_days, 60_days, 90_days, 6_months, 1_year");
        bad(ok + "&cacCeiling=-1", "Invalid cacCeiling: -1. It must be a number zero or greater");
        bad(ok + "&cacCeiling=abc", "Invalid cacCeiling: abc. It must be a number zero or greater");
        bad(ok.replace("id=m_ad1&", ""), "Missing required parameter: id");
        bad(ok.replace("&level=ad", ""), "Missing required parameter: level");
        bad(ok + "&basis=click_date", "Unknown parameter: basis");
        bad(ok + "&level=campaign", "Duplicate parameter: level");
        bad(ok.replace("endDate=2026-01-10", "endDate=2099-01-01"), "startDate or endDate cannot be in the future.");
        bad("id=m_ad1&level=ad&endDate=" + enc("2026-01-10T00:00:00+01:00"), "There was a problem processing the date in the request.");
        bad(ok.replace("startDate=2026-01-01", "startDate=" + enc("2026-01-01T00:00:00.500")), "Invalid start date");
        bad(ok.replace("startDate=2026-01-01", "startDate=2026-01-11"), "startDate cannot be later than endDate");
        bad(ok.replace("startDate=2026-01-01", "startDate=yesterday"), "Invalid date format.");
        String acct = "id=m_acct&level=account";
        bad(acct + JANUARY + "&ltvWindow=30_days", "ltvWindow is not accepted at level account");
        bad(acct + "&startDate=2026-01-01&endDate=2026-04-02", "The date range cannot be longer than 90 days at level account");
    }

    @Test
    void role() {
        String attributionOnly = newAccount("UTC", List.of(Roles.GET_ATTRIBUTION));
        Response r = get(attributionOnly, "/api/v1.0/attribution/marginal-cac-curve?id=x&level=ad");
        assertEquals(403, r.status(), r.raw());
        assertTrue(r.message().contains("Get ROAS"), r.raw());
        String roasOnly = newAccount("UTC", List.of(Roles.GET_ROAS));
        assertEquals(400, get(roasOnly, "/api/v1.0/attribution/marginal-cac-curve?id=x&level=ad").status());
    }
}
