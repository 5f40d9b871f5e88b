package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link N8nApiTest} on the node's attribution reports over the demo account (as the node sends them, every field and
 * level it offers, the dates it refuses) and the account surfaces: user info, domains, tracking script, webhooks.
 */
@MicronautTest(transactional = false)
class N8nReportsAndSurfacesTest extends N8nApiTest {

    // ---------------------------------------------------------------- attribution reports

    @Test
    void attributionReportsAsTheNodeSendsThem() {
        String level = seeded.get("sampleLevel").asText();
        String adId = seeded.get("sampleAdId").asText();
        Answer ads = demo.get("/attribution", q("attributionModel", "last_click", "level", level,
                "startDate", "2026-09-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", "sales,revenue,cost",
                "ids", adId, "currency", "user_currency", "dayOfAttribution", false, "scientificDaysRange", 30,
                "sourceConfiguration", "all_sources", "ignoreRecurringSales", false, "forecastingOption", "first_sale",
                "newCustomerConfiguration", "all_customers", "timeGroupingOption", "source_link", "pageSize", 50));
        ok(ads);
        assertTrue(ads.result().isArray(), ads.toString());

        String adAccount = demo.all("/ad-accounts", q()).get(0).get("id").asText();
        Answer byAccount = demo.get("/attribution/ad-account", q("attributionModel", "first_click",
                "startDate", "2026-09-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", "sales,revenue,cost",
                "ids", adAccount, "currency", "user_currency", "dayOfAttribution", false, "adLevelDateGroupingOption", "month"));
        ok(byAccount);
        assertTrue(byAccount.result().isArray(), byAccount.toString());

        Answer roas = demo.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-09-01T00:00:00",
                "endDate", "2026-10-31T23:59:59", "basis", "click_date"));
        ok(roas);
        assertTrue(roas.body().has("request_id"));

        Answer curve = demo.get("/attribution/marginal-cac-curve", q("id", adId, "level", "ad",
                "startDate", "2026-09-01T00:00:00", "endDate", "2026-10-31T23:59:59", "ltvWindow", "90_days",
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
        String adId = seeded.get("sampleAdId").asText();
        Answer all = demo.get("/attribution", q("attributionModel", "scientific", "level", seeded.get("sampleLevel").asText(),
                "startDate", "2026-10-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", NODE_FIELDS, "ids", adId));
        ok(all);
        for (String level : List.of("bing_ad", "bing_adgroup", "facebook_ad", "facebook_adset", "facebook_campaign", "google_ad",
                "google_campaign", "google_v2_adgroup", "linkedin_campaign", "pinterest_ad", "pinterest_adgroup", "snapchat_ad",
                "snapchat_adsquad", "tiktok_ad", "tiktok_adgroup", "twitter_adgroup")) {
            Answer a = demo.get("/attribution", q("attributionModel", "last_click", "level", level,
                    "startDate", "2026-10-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", "sales,revenue,cost",
                    "ids", "123456", "timeGroupingOption", "day"));
            ok(a);
        }
        String adAccount = demo.all("/ad-accounts", q()).get(0).get("id").asText();
        Answer byAccountId = demo.get("/attribution", q("attributionModel", "last_click", "level", seeded.get("sampleLevel").asText(),
                "startDate", "2026-10-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", "name,sales,revenue,cost",
                "ids", adAccount, "isAdAccountId", true, "status", "active", "pageSize", 50));
        ok(byAccountId);
        Answer keywords = demo.get("/attribution", q("attributionModel", "last_click", "level", "google_v2_keyword",
                "startDate", "2026-10-01T00:00:00", "endDate", "2026-10-31T23:59:59", "fields", "sales,revenue,cost",
                "ids", "", "keywordsIds", "111:[222,333]", "lead_stage", ""));
        ok(keywords);
        // n8n's {{ $now }}-style dates carry milliseconds: the reports refuse them (spec 2.2.6), as documented
        Answer millis = demo.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-10-01T00:00:00.000-04:00",
                "endDate", "2026-10-31T23:59:59.000-04:00"));
        assertEquals(400, millis.status(), millis.toString());
        assertEquals("Invalid start date", millis.body().get("message").get(0).asText(), millis.toString());
        Answer oneOffset = demo.get("/attribution/roas", q("id", adId, "level", "ad", "startDate", "2026-10-01T00:00:00-04:00",
                "endDate", "2026-10-31T23:59:59"));
        assertEquals(400, oneOffset.status(), oneOffset.toString());
        assertEquals("There was a problem processing the date in the request.", oneOffset.body().get("message").get(0).asText());
        for (String level : List.of("account", "campaign", "source_link")) {
            Answer roas = demo.get("/attribution/roas", q("id", "999", "level", level, "startDate", "2026-10-01T00:00:00",
                    "endDate", "2026-10-31T23:59:59", "basis", "sale_date"));
            assertEquals(400, roas.status(), "an id not belonging to the account, spec 4.5: " + roas);
        }
        ok(demo.get("/attribution/marginal-cac-curve", q("id", adId, "level", "ad", "cacCeiling", 150)));
    }

    // ---------------------------------------------------------------- account surfaces, webhooks

    @Test
    void userInfoDomainsTrackingScript() {
        Answer info = n8n.get("/user-info", null);
        ok(info);
        assertTrue(info.result().isObject(), info.toString());
        Answer domains = n8n.get("/domains", null);
        ok(domains);
        assertTrue(domains.body().isArray(), "the node maps the answer itself: " + domains);
        Answer script = n8n.get("/tracking-script", q("spa", true, "embed", false));
        ok(script);
        assertTrue(script.raw().contains("<script"), script.toString());
        ok(n8n.get("/tracking-script", null));
    }

    @Test
    void trackingScriptWithEveryOption() {
        ok(n8n.get("/tracking-script", q("spa", true, "ignorePrevUrl", true, "embed", true, "deleteTrackingScriptParams", false)));
    }

    @Test
    void webhookSubscriptions() {
        Answer created = n8n.request("POST", "/webhook-subscriptions", """
                {"name":"N8n hook","targetUrl":"http://127.0.0.1:9/n8n-hook","eventTypes":["sale.attributed","lead.tag.added"]}""",
                null);
        ok(created);
        String externalId = created.result().get("externalId").asText();
        assertNotNull(created.result().get("secretKey"));
        Answer list = n8n.get("/webhook-subscriptions", null);
        ok(list);
        assertTrue(list.result().isArray());
        assertNull(list.result().get(0).get("secretKey"));
        ok(n8n.request("DELETE", "/webhook-subscriptions/" + externalId, null, null));
        JsonNode left = n8n.get("/webhook-subscriptions", null).result();
        left.forEach(w -> assertTrue(!externalId.equals(w.get("externalId").asText()) || "DELETED".equals(w.get("state").asText()),
                left.toString()));
    }
}
