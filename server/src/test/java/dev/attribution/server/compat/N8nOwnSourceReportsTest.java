package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.attribution.roas.CacCurveBuilder;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link N8nApiTest} on the node's own ad hierarchy (issue 20): a workflow creates a FACEBOOK and a GOOGLE source
 * (Source → Create), sends clicks (Click → Create, with and without an ad id), orders (Order → Create, a rebill
 * item), custom costs on the source tags (Custom Cost → Create), and then runs Attribution → ROAS and Attribution →
 * Marginal CAC Curve on the ids it wrote itself: the ad set id of its source, the ad id of its click, the campaign
 * and the ad account, and Ad → Get Many / Ad Account → Get Many for them. Every id answers a row with the numbers
 * of what was written (custom costs are the cost), never 400 "Id not found".
 *
 * <p>Data, days before today (America/New_York; clicks and orders at 15:00Z, the same date in New York):
 * <ul>
 * <li>FACEBOOK source S_FB (ad account A_FB, campaign C_FB); GOOGLE source S_G (ad account A_G, DISPLAY).</li>
 * <li>ada: click S_FB ad D_FB on day 20; order day 19: 99.50 + rebill 20.00.</li>
 * <li>bob: click S_FB without ad id on day 18; order day 17: 50.00.</li>
 * <li>cy: click S_G on day 15; order day 14: 30.00.</li>
 * <li>Custom costs: DAILY 12.50 on S_FB's tag, days 20..11 (10 days, 125.00); ONE_TIME 40.00 on [S_FB, S_G] tags on
 * day 15 (20.00 each).</li>
 * </ul>
 * Costs go to the source entries (S_FB, S_G), never to the real ad D_FB (notes/design-hierarchy.md). The node's other
 * report requests (every option, field and level it offers, the dates it refuses) are replayed on the same ids.
 */
@MicronautTest(transactional = false)
class N8nOwnSourceReportsTest extends N8nApiTest {

    static final String S_FB = "238599990001";
    static final String C_FB = "238499990001";
    static final String A_FB = "act_999000001";
    static final String D_FB = "238699990011";
    static final String S_G = "139999000001";
    static final String A_G = "999-000-0001";

    LocalDate today;
    String fbTag;
    String googleTag;

    @Override
    boolean usesDemo() {
        return false;
    }

    private String day(int daysAgo) {
        return today.minusDays(daysAgo).toString();
    }

    private String at(int daysAgo) {
        return day(daysAgo) + "T15:00:00Z";
    }

    @BeforeAll
    void writeAsTheNodeDoes() {
        today = LocalDate.now(ZoneId.of("America/New_York"));
        // Source → Create: name, then the additional fields added (alphabetical, as the node's collection sends them)
        fbTag = applied(n8n, n8n.request("POST", "/sources", """
                {"name":"N8n FB Prospecting","accountId":"%s","adSourceId":"%s","campaignId":"%s","category":"","goal":"",
                 "integrationType":"FACEBOOK","isDisregard":false,"isOrganic":false,"trafficSource":""}""".formatted(A_FB, S_FB, C_FB),
                null), "CREATE_SOURCE_LINK").get("result").get("tag").asText();
        googleTag = applied(n8n, n8n.request("POST", "/sources", """
                {"name":"N8n Google Search","accountId":"%s","adSourceId":"%s","adspendSubType":"DISPLAY","integrationType":"GOOGLE"}"""
                .formatted(A_G, S_G), null), "CREATE_SOURCE_LINK").get("result").get("tag").asText();
        // Click → Create: referrerUrl, then the options as entered (blank ones included)
        click("ada+n8n@example.com", "FACEBOOK", S_FB, D_FB, fbTag, 20);
        click("bob+n8n@example.com", "FACEBOOK", S_FB, "", fbTag, 18);
        click("cy+n8n@example.com", "GOOGLE", S_G, "", googleTag, 15);
        // Custom Cost → Create
        applied(n8n, n8n.request("POST", "/custom-costs", """
                {"startDate":"%sT00:00:00","frequency":"DAILY","cost":12.5,"tags":["%s"],"name":"N8n agency","endDate":"%sT00:00:00"}"""
                .formatted(day(20), fbTag, day(11)), null), "CREATE_CUSTOM_COST");
        applied(n8n, n8n.request("POST", "/custom-costs", """
                {"startDate":"%sT09:00:00","frequency":"ONE_TIME","cost":40,"tags":["%s","%s"],"name":"N8n launch"}"""
                .formatted(day(15), fbTag, googleTag), null), "CREATE_CUSTOM_COST");
        // Order → Create, written last: once its sales are in ClickHouse, so is everything before (CDC keeps WAL order)
        order("ada+n8n@example.com", "n8n-own-1", 19, item("N8n Course", "99.5", false) + "," + item("N8n Membership", "20", true));
        order("bob+n8n@example.com", "n8n-own-2", 17, item("N8n Course", "50", false));
        order("cy+n8n@example.com", "n8n-own-3", 14, item("N8n Course", "30", false));
        await(() -> n8nSales() == 4 ? true : null);
    }

    /** The account's sales as ClickHouse holds them (conversion paths read ClickHouse; the node does not call them). */
    private int n8nSales() {
        Answer a = n8n.get("/conversion-paths", q("conversionType", "SALE", "pageSize", 250));
        return a.status() == 200 ? a.result().size() : -1;
    }

    private void click(String email, String platform, String adSourceId, String adId, String tag, int daysAgo) {
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/?utm_source=n8n","adSourceClickId":"","adSourceId":"%s","adspendAdId":"%s",
                 "date":"%s","email":"%s","integrationType":"%s","ip":"","isOrganic":false,"previousUrl":"","sessionId":"",
                 "sourceLinkTag":"%s","tag":"","userAgent":""}""".formatted(adSourceId, adId, at(daysAgo), email, platform, tag),
                null), "CREATE_CLICK");
    }

    private static String item(String name, String price, boolean rebill) {
        return """
                {"categoryName":"","costOfGoods":0,"externalId":"","isRebill":%s,"itemDiscount":0,"name":"%s",
                 "packages":"","price":%s,"quantity":1,"sku":"","tag":"","taxes":0}""".formatted(rebill, name, price);
    }

    private void order(String email, String orderId, int daysAgo, String items) {
        applied(n8n, n8n.request("POST", "/orders", """
                {"email":"%s","items":[%s],"orderId":"%s","date":"%s","currency":"","cartId":"","externalSubscriptionId":"",
                 "firstName":"","lastName":"","parentEmail":"","stage":"","priceFormat":"DECIMAL","hardCost":0,"shippingCost":0,
                 "taxes":0,"orderDiscount":0}""".formatted(email, items, orderId, at(daysAgo)), null), "CREATE_ORDER");
    }

    /** Attribution → ROAS as the node sends it (the date picker's seconds-precision values, no offset). */
    private JsonNode roas(String id, String level, String basis) {
        Answer a = n8n.get("/attribution/roas", q("id", id, "level", level, "startDate", day(25) + "T00:00:00",
                "endDate", day(1) + "T23:59:59", "basis", basis));
        ok(a);
        assertNotNull(a.result(), "a row for " + level + " " + id + ": " + a);
        return a.result();
    }

    private static void expect(JsonNode r, String id, String roas, String ncRoas, String revenue, String recurring, String total,
                               String cost, long uniqueSales, long uniqueCustomers) {
        assertEquals(id, r.get("id").asText(), r.toString());
        money(roas, r.get("roas"), "roas " + r);
        money(ncRoas, r.get("new_customers_roas"), "new_customers_roas " + r);
        money(revenue, r.get("revenue"), "revenue " + r);
        money(recurring, r.get("recurring_revenue"), "recurring_revenue " + r);
        money(total, r.get("total_revenue"), "total_revenue " + r);
        money(cost, r.get("cost"), "cost " + r);
        assertEquals(uniqueSales, r.get("unique_sales").asLong(), r.toString());
        assertEquals(uniqueCustomers, r.get("unique_customers").asLong(), r.toString());
        assertTrue(r.get("reported_result").isNull(), "no spend import, nothing reported: " + r);
        assertTrue(r.get("reported_vs_revenue").isNull(), r.toString());
    }

    @Test
    void roasOnTheIdsTheWorkflowWrote() {
        // the ad set: ada 99.50 + rebill 20 (ad D_FB), bob 50 (no ad id: the source entry); cost 125 + 20 = 145
        // roas 169.50 / 145 = 1.169 → 1.17; first purchases 149.50 / 145 = 1.031 → 1.03
        for (String basis : List.of("click_date", "sale_date")) {
            expect(roas(S_FB, "source_link", basis), S_FB, "1.17", "1.03", "149.50", "20.00", "169.50", "145.00", 2, 2);
            expect(roas(C_FB, "campaign", basis), C_FB, "1.17", "1.03", "149.50", "20.00", "169.50", "145.00", 2, 2);
            expect(roas(A_FB, "account", basis), A_FB, "1.17", "1.03", "149.50", "20.00", "169.50", "145.00", 2, 2);
            // the real ad: ada's sales, no custom cost (costs are never split over a source's real ads)
            expect(roas(D_FB, "ad", basis), D_FB, null, null, "99.50", "20.00", "119.50", "0.00", 1, 1);
            // the source entry S_FB at ad level: bob's click without ad id and the source's custom costs: 50 / 145 = 0.34
            expect(roas(S_FB, "ad", basis), S_FB, "0.34", "0.34", "50.00", "0.00", "50.00", "145.00", 1, 1);
            // Google: cy 30, its half of the launch cost 20 → 1.50
            expect(roas(S_G, "source_link", basis), S_G, "1.50", "1.50", "30.00", "0.00", "30.00", "20.00", 1, 1);
            expect(roas(A_G, "account", basis), A_G, "1.50", "1.50", "30.00", "0.00", "30.00", "20.00", 1, 1);
        }
    }

    @Test
    void marginalCacCurveOnTheWorkflowsAdSet() {
        // spend per day of S_FB: 12.50 on days 20..11, + 20.00 on day 15; new customers (first click): ada day 20, bob day 18
        List<CacCurveBuilder.Day> days = new ArrayList<>();
        for (int d = 20; d >= 11; d--) {
            days.add(new CacCurveBuilder.Day(today.minusDays(d), d == 15 ? 3250 : 1250, d == 20 || d == 18 ? 1 : 0));
        }
        CacCurveBuilder.Curve want = CacCurveBuilder.build(days, new BigDecimal("5000"));
        for (String[] e : new String[][]{{S_FB, "source_link"}, {C_FB, "campaign"}, {A_FB, "account"}}) {
            // Attribution → Marginal CAC Curve: id, level, then the options added (cacCeiling only when > 0)
            Answer a = n8n.get("/attribution/marginal-cac-curve", q("id", e[0], "level", e[1], "startDate", day(25) + "T00:00:00",
                    "endDate", day(1) + "T23:59:59", "cacCeiling", 50, "attributionModel", "first_click"));
            ok(a);
            JsonNode r = a.result();
            assertEquals(e[0], r.get("id").asText(), r.toString());
            assertEquals(10, r.get("daysSampled").asInt(), "ten days of custom cost: " + r);
            assertEquals(want.buckets().size(), r.get("curve").size(), r.toString());
            long customers = 0;
            for (int b = 0; b < want.buckets().size(); b++) {
                CacCurveBuilder.Bucket w = want.buckets().get(b);
                JsonNode g = r.get("curve").get(b);
                money(w.spendPerDay().toString(), g.get("spendPerDay"), "spendPerDay " + r);
                assertEquals(w.days(), g.get("days").asInt(), r.toString());
                assertEquals(w.newCustomers(), g.get("newCustomers").asLong(), r.toString());
                money(w.avgCac() == null ? null : w.avgCac().toString(), g.get("avgCac"), "avgCac " + r);
                customers += g.get("newCustomers").asLong();
            }
            assertEquals(2, customers, r.toString());
            assertEquals(List.of(), texts(r.get("notes")), r.toString());
        }
        // the real ad: its customer, no spend of its own → NO_SPEND_DATA, not "Id not found"
        Answer ad = n8n.get("/attribution/marginal-cac-curve", q("id", D_FB, "level", "ad", "startDate", day(25) + "T00:00:00",
                "endDate", day(1) + "T23:59:59", "ltvWindow", "30_days", "attributionModel", "last_click"));
        ok(ad);
        assertTrue(texts(ad.result().get("notes")).contains("NO_SPEND_DATA"), ad.toString());
        assertEquals(0, ad.result().get("daysSampled").asInt(), ad.toString());
    }

    @Test
    void adsAndAdAccountsTheWorkflowWrote() {
        // Ad → Get Many with the click's ad id: the ad and the source that tracks it
        List<JsonNode> ads = n8n.all("/ads", q("adSourceIds", D_FB));
        assertEquals(1, ads.size(), ads.toString());
        assertEquals(D_FB, ads.get(0).get("adSource").get("adSourceId").asText());
        assertEquals(A_FB, ads.get(0).get("adSource").get("adAccountId").asText());
        assertEquals(fbTag, ads.get(0).get("source").get("tag").asText(), ads.toString());
        // the source entry (the source's own level) is not an ad of GET /ads
        assertEquals(List.of(), n8n.all("/ads", q("integrationType", "GOOGLE")), "Google: only the source entry, not listed");
        // Ad Account → Get Many
        List<JsonNode> accounts = n8n.all("/ad-accounts", q("fields", "name,type"));
        List<String> ids = new ArrayList<>();
        accounts.forEach(x -> ids.add(x.get("id").asText() + ":" + x.get("type").asText()));
        ids.sort(null);
        assertEquals(List.of(A_G + ":GOOGLE", A_FB + ":FACEBOOK").stream().sorted().toList(), ids, accounts.toString());
        // Source → Get Many by the ad set id
        List<JsonNode> sources = n8n.all("/sources", q("adSourceIds", S_FB));
        assertEquals(1, sources.size(), sources.toString());
        assertEquals(fbTag, sources.get(0).get("tag").asText());
        // Attribution → Ad Account Report on the written ad account: a row, its cost the custom costs
        Answer byAccount = n8n.get("/attribution/ad-account", q("attributionModel", "last_click", "startDate", day(25) + "T00:00:00",
                "endDate", day(1) + "T23:59:59", "fields", "sales,revenue,cost", "ids", A_FB));
        ok(byAccount);
        assertFalse(byAccount.body().has("message"), byAccount.toString());
        assertEquals(1, byAccount.result().size(), byAccount.toString());
        money("145.00", byAccount.result().get(0).get("cost"), "ad account cost " + byAccount);
    }

    // ------------------------------------------- the node's report requests, as it sends them, on the ids it wrote

    @Test
    void attributionReportsAsTheNodeSendsThem() {
        String level = "facebook_ad";
        String adId = D_FB;
        Answer ads = n8n.get("/attribution", q("attributionModel", "last_click", "level", level,
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", "sales,revenue,cost",
                "ids", adId, "currency", "user_currency", "dayOfAttribution", false, "scientificDaysRange", 30,
                "sourceConfiguration", "all_sources", "ignoreRecurringSales", false, "forecastingOption", "first_sale",
                "newCustomerConfiguration", "all_customers", "timeGroupingOption", "source_link", "pageSize", 50));
        ok(ads);
        assertEquals(1, ads.result().size(), "the ad the workflow clicked: " + ads);

        String adAccount = A_FB;
        Answer byAccount = n8n.get("/attribution/ad-account", q("attributionModel", "first_click",
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", "sales,revenue,cost",
                "ids", adAccount, "currency", "user_currency", "dayOfAttribution", false, "adLevelDateGroupingOption", "month"));
        ok(byAccount);
        assertTrue(byAccount.result().isArray(), byAccount.toString());

        Answer roas = n8n.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-09-01T00:00:00",
                "endDate", "2026-10-31T23:59:59", "basis", "click_date"));
        ok(roas);
        assertTrue(roas.body().has("request_id"));

        Answer curve = n8n.get("/attribution/marginal-cac-curve", q("id", adId, "level", "ad",
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "ltvWindow", "90_days",
                "attributionModel", "first_click"));
        ok(curve);
        assertNotNull(curve.result());
    }

    /** Every metric the node's Fields list offers, in one report, at every level the node offers. */
    static final String NODE_FIELDS = "1_year_ltv,1_year_ltv_forecast,30_days_ltv,30_days_ltv_forecast,6_months_ltv,"
            + "6_months_ltv_forecast,60_days_ltv,60_days_ltv_forecast,90_days_ltv,90_days_ltv_forecast,aov,atc_cvr,atc_events,"
            + "atc_rate,cac,calls,canceled_calls,canceled_subscriptions,canceled_trials,carts,churn_rate,clicks,converted_trials,"
            + "cost,cost_of_goods,cost_per_atc,cost_per_call,cost_per_click,cost_per_lead,cost_per_new_lead,"
            + "cost_per_new_subscriptions,cost_per_new_trials,cost_per_new_visit,cost_per_qualified_call,cost_per_sale,"
            + "cost_per_unique_call,cost_per_unique_customer,cost_per_unique_sale,cpm,ctr,customers,cvr,direct_subscriptions,"
            + "gross_margins,hard_costs,impressions,leads,name,net_profit,net_profit_percentage,new_customers_percentage,new_leads,"
            + "new_mrr,new_subscriptions,new_trials,new_visits,one_time_sales,parent_name,partial_video_views,profit,"
            + "purchased_carts,qualified_calls,recurring_customers,recurring_revenue,refund,refund_count,"
            + "refund_revenue_percentage,refund_sales_percentage,reported,reported_result,reported_vs_revenue,revenue,roas,roi,"
            + "sales,shipping_value,shop_reported_result,subscription_1_year_forecast,subscription_30_days_forecast,"
            + "subscription_6_months_forecast,subscription_60_days_forecast,subscription_90_days_forecast,taxes,"
            + "time_of_call_attribution,time_of_sale_attribution,total_customers,total_revenue,unique_calls,unique_customers,"
            + "unique_customers_revenue,unique_sales,unqualified_calls";

    @Test
    void everyFieldAndLevelTheNodeOffers() {
        String adId = D_FB;
        Answer all = n8n.get("/attribution", q("attributionModel", "scientific", "level", "facebook_ad",
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", NODE_FIELDS, "ids", adId));
        ok(all);
        for (String level : List.of("bing_ad", "bing_adgroup", "facebook_ad", "facebook_adset", "facebook_campaign", "google_ad",
                "google_campaign", "google_v2_adgroup", "linkedin_campaign", "pinterest_ad", "pinterest_adgroup", "snapchat_ad",
                "snapchat_adsquad", "tiktok_ad", "tiktok_adgroup", "twitter_adgroup")) {
            Answer a = n8n.get("/attribution", q("attributionModel", "last_click", "level", level,
                    "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", "sales,revenue,cost",
                    "ids", "123456", "timeGroupingOption", "day"));
            ok(a);
        }
        String adAccount = A_FB;
        Answer byAccountId = n8n.get("/attribution", q("attributionModel", "last_click", "level", "facebook_ad",
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", "name,sales,revenue,cost",
                "ids", adAccount, "isAdAccountId", true, "status", "active", "pageSize", 50));
        ok(byAccountId);
        Answer keywords = n8n.get("/attribution", q("attributionModel", "last_click", "level", "google_v2_keyword",
                "startDate", day(25) + "T00:00:00", "endDate", day(1) + "T23:59:59", "fields", "sales,revenue,cost",
                "ids", "", "keywordsIds", "111:[222,333]", "lead_stage", ""));
        ok(keywords);
        // n8n's {{ $now }}-style dates carry milliseconds: the reports refuse them (spec 2.2.6), as documented
        Answer millis = n8n.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-10-01T00:00:00.000-04:00",
                "endDate", "2026-10-31T23:59:59.000-04:00"));
        assertEquals(400, millis.status(), millis.toString());
        assertEquals("Invalid start date", millis.body().get("message").get(0).asText(), millis.toString());
        Answer oneOffset = n8n.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-10-01T00:00:00-04:00",
                "endDate", "2026-10-31T23:59:59"));
        assertEquals(400, oneOffset.status(), oneOffset.toString());
        assertEquals("There was a problem processing the date in the request.", oneOffset.body().get("message").get(0).asText());
        for (String level : List.of("account", "campaign", "source_link")) {
            Answer roas = n8n.get("/attribution/roas", q("id", "999", "level", level, "startDate", "2026-10-01T00:00:00",
                    "endDate", "2026-10-31T23:59:59", "basis", "sale_date"));
            assertEquals(400, roas.status(), "an id not belonging to the account, spec 4.5: " + roas);
        }
        ok(n8n.get("/attribution/marginal-cac-curve", q("id", adId, "level", "ad", "cacCeiling", 150)));
    }
}
