package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ad hierarchy the API's own writes register (docs/attribution-models.md, "The ad hierarchy the API writes"),
 * written and read through HTTP only: sources and clicks in either order, the source entry, the spend import
 * attaching to what the API wrote, and custom costs reaching {@code cost} at every level above the source.
 */
@MicronautTest(transactional = false)
class AdHierarchyApiTest extends AccountApiTest {

    private static final ZoneId ZONE = ZoneId.of("America/New_York");

    private void source(String json) {
        created(SourcesApiTest.PATH, "CREATE_SOURCE_LINK", json);
    }

    private void click(String json) {
        created("/api/v1.0/clicks", "CREATE_CLICK", json);
    }

    private JsonNode ads(String adIds) {
        Response r = get(key, "/api/v1.0/ads?adSourceIds=" + list(adIds.split(",")));
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result");
    }

    private static String yesterday() {
        return LocalDate.now(ZONE).minusDays(1).toString();
    }

    /** GET /attribution over yesterday: the one row of {@code id}, once it passes {@code check} (CDC brings rows shortly). */
    private JsonNode attributionRow(String level, String id, String fields, java.util.function.Consumer<JsonNode> check) {
        String day = yesterday();
        return await(() -> {
            Response r = get(key, "/api/v1.0/attribution?attributionModel=last_click&level=" + level + "&ids=" + enc(id)
                    + "&startDate=" + day + "T00:00:00&endDate=" + day + "T23:59:59&fields=" + fields);
            assertEquals(200, r.status(), r.raw());
            JsonNode rows = r.body().get("result");
            assertTrue(rows.size() == 1 && r.body().path("message").isMissingNode(), r.raw());
            check.accept(rows.get(0));
            return rows.get(0);
        });
    }

    private static void assertMoney(String expected, JsonNode value) {
        assertEquals(expected, value.decimalValue().setScale(2).toPlainString());
    }

    @Test
    void clickBeforeItsSourceGetsTheSourcesParentsAndIsListedByGetAds() {
        click("""
                {"referrerUrl":"https://shop.example/?fbclid=1","email":"early@example.com","integrationType":"FACEBOOK",
                 "adSourceId":"as_900","adspendAdId":"ad_901","date":"%sT10:00:00"}""".formatted(yesterday()));
        JsonNode early = ads("ad_901").get(0);
        assertEquals("", early.get("adSource").get("adAccountId").asText(), "no ad account is known before the source");
        source("""
                {"name":"FB prospecting","integrationType":"FACEBOOK","adSourceId":"as_900","accountId":"act_9",
                 "campaignId":"cmp_90"}""");
        JsonNode ad = ads("ad_901").get(0);
        assertEquals("ad_901", ad.get("adSource").get("adSourceId").asText());
        assertEquals("act_9", ad.get("adSource").get("adAccountId").asText());
        assertEquals("FACEBOOK", ad.get("adSource").get("platform").asText());
        assertEquals("@fb-prospecting", ad.get("source").get("tag").asText(), "the ad is listed with the source it belongs to");
        assertEquals(0, ads("as_900").size(), "the source entry is not an ad");
        Response accounts = get(key, "/api/v1.0/ad-accounts?ids=act_9");
        assertEquals("act_9", accounts.body().get("result").get(0).get("id").asText());
        // every level above the ad knows the partner's ids
        for (String[] level : new String[][]{{"facebook_adset", "as_900"}, {"facebook_campaign", "cmp_90"}, {"facebook_ad", "ad_901"}}) {
            attributionRow(level[0], level[1], "clicks", row -> assertEquals(1, row.get("clicks").asLong(), level[0]));
        }
        String day = yesterday();
        for (String[] level : new String[][]{{"ad", "ad_901"}, {"source_link", "as_900"}, {"campaign", "cmp_90"}, {"account", "act_9"}}) {
            Response roas = get(key, "/api/v1.0/attribution/roas?level=" + level[0] + "&id=" + level[1] + "&startDate=" + day
                    + "T00:00:00&endDate=" + day + "T23:59:59");
            assertEquals(200, roas.status(), level[0] + " " + roas.raw());
        }
    }

    @Test
    void aClickWithoutAnAdIdIsCreditedToTheSourceEntryAndCustomCostsReachEveryLevelAboveIt() {
        String day = yesterday();
        source("""
                {"name":"Search brand","integrationType":"GOOGLE","adSourceId":"ag_55","accountId":"111-222",
                 "adspendSubType":"DISPLAY","campaignId":"gc_5"}""");
        click("""
                {"referrerUrl":"https://shop.example/?gclid=2","email":"buyer@example.com","integrationType":"GOOGLE",
                 "adSourceId":"ag_55","sourceLinkTag":"@search-brand","date":"%sT09:00:00-05:00"}""".formatted(day));
        click("""
                {"referrerUrl":"https://shop.example/?gclid=3","email":"other@example.com","integrationType":"GOOGLE",
                 "adSourceId":"ag_55","adspendAdId":"gad_1","sourceLinkTag":"@search-brand","date":"%sT11:00:00-05:00"}""".formatted(day));
        // 30.00 a day, written with an offset that is discarded (spec 2.2 rule 8): it counts on the written day
        created("/api/v1.0/custom-costs", "CREATE_CUSTOM_COST", """
                {"startDate":"%sT00:00:00+09:00","endDate":"%sT23:59:59+09:00","frequency":"DAILY","cost":30,"tags":["@search-brand"]}"""
                .formatted(day, day));
        processed(key, "POST", "/api/v1.0/orders", """
                {"email":"buyer@example.com","orderId":"o-1","date":"%sT12:00:00-05:00",
                 "items":[{"name":"Course","price":90}]}""".formatted(day), "CREATE_ORDER");
        attributionRow("google_adgroup", "ag_55", "sales,revenue,cost,roas,clicks,leads", row -> {
            assertEquals(1, row.get("sales").asLong(), row.toString());
            assertMoney("90.00", row.get("revenue"));
            assertMoney("30.00", row.get("cost"));
            assertMoney("3.00", row.get("roas"));
            assertEquals(2, row.get("clicks").asLong());
        });
        attributionRow("google_campaign", "gc_5", "cost,sales", row -> {
            assertMoney("30.00", row.get("cost"));
            assertEquals(1, row.get("sales").asLong());
        });
        // at the ad level the real ad has no share of the source's custom cost (no invented split); the entry has it
        attributionRow("google_ad", "gad_1", "cost,clicks", row -> assertEquals(0, row.get("cost").decimalValue().signum()));
        attributionRow("google_ad", "ag_55", "cost,sales,name", row -> {
            assertMoney("30.00", row.get("cost"));
            assertEquals(1, row.get("sales").asLong(), "the click without an ad id is the entry's");
            assertEquals("Search brand", row.get("name").asText());
        });
        for (String[] level : new String[][]{{"source_link", "ag_55"}, {"campaign", "gc_5"}, {"account", "111-222"}}) {
            JsonNode roas = get(key, "/api/v1.0/attribution/roas?level=" + level[0] + "&id=" + level[1] + "&startDate=" + day
                    + "T00:00:00&endDate=" + day + "T23:59:59").body().get("result");
            assertMoney("30.00", roas.get("cost"));
            assertMoney("3.00", roas.get("roas"));
            assertNull(roas.get("reported_result").textValue(), "nothing reported without imported spend");
        }
        // a new tag (spec 3.2: fields changed, sales re-attributed) keeps the custom costs that named the source
        processed(key, "PUT", "/api/v1.0/sources/" + enc("@search-brand"), "{\"tag\":\"@brand-search\"}", "UPDATE_SOURCE_LINK");
        JsonNode cost = get(key, "/api/v1.0/custom-costs").body().get("result").get(0);
        assertEquals("[\"@brand-search\"]", cost.get("tags").toString());
        attributionRow("google_adgroup", "ag_55", "cost,sales", row -> {
            assertMoney("30.00", row.get("cost"));
            assertEquals(1, row.get("sales").asLong());
        });
        JsonNode curve = get(key, "/api/v1.0/attribution/marginal-cac-curve?level=source_link&id=ag_55&startDate=" + day
                + "&endDate=" + day + "&cacCeiling=100").body().get("result");
        assertEquals(1, curve.get("daysSampled").asInt(), curve.toString());
        assertMoney("30.00", curve.get("curve").get(0).get("spendPerDay"));
        assertEquals(1, curve.get("curve").get(0).get("newCustomers").asLong());
    }

    @Test
    void theSpendImportAttachesToWhatTheApiWroteWithoutDuplicates() {
        click("""
                {"referrerUrl":"https://shop.example/","email":"imp@example.com","integrationType":"FACEBOOK",
                 "adSourceId":"fb_s1","adspendAdId":"fb_ad1"}""");
        Response imported = sendWithHeaders("POST", "/api/v1.0/ad-spend/import",
                "platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend\nFACEBOOK,fb_acct,fb_c1,fb_s1,fb_ad1," + yesterday() + ",12.50\n",
                java.util.Map.of("API-Key", key, "Content-Type", "text/csv"));
        assertEquals(200, imported.status(), imported.raw());
        assertEquals(0, imported.body().get("result").get("ads").asLong(), "the API already registered the ad");
        JsonNode listed = ads("fb_ad1");
        assertEquals(1, listed.size());
        assertEquals("fb_acct", listed.get(0).get("adSource").get("adAccountId").asText(), "the import filled the blank parent");
        attributionRow("facebook_campaign", "fb_c1", "cost", row -> assertMoney("12.50", row.get("cost")));
    }

    /**
     * Clicks of an ad group no source names (GOOGLE_V2: POST /sources has no such platform), one naming an ad and one
     * not (the ad group's own entry), registered with blank parents; then a spend file naming the ad group with another
     * ad of it. The ad group's ads take the parents the file gives the ad group, as they would have had the file come
     * first (found by ApiWrittenAttributionTest: its GOOGLE_V2 clicks were in no campaign row when the file came last).
     */
    @Test
    void theSpendImportGivesItsAdGroupsParentsToTheAdsClicksRegisteredUnderThem() {
        for (String ad : new String[]{"", "gv_ad1"}) {
            click("""
                    {"referrerUrl":"https://shop.example/","email":"gv@example.com","integrationType":"GOOGLE_V2","adSourceId":"gv_g1",
                     %s"date":"%sT09:00:00Z"}""".formatted(ad.isEmpty() ? "" : "\"adspendAdId\":\"" + ad + "\",", yesterday()));
        }
        Response imported = sendWithHeaders("POST", "/api/v1.0/ad-spend/import",
                "platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend\nGOOGLE_V2,gv_acct,gv_c1,gv_g1,gv_ad2," + yesterday() + ",4.00\n",
                java.util.Map.of("API-Key", key, "Content-Type", "text/csv"));
        assertEquals(200, imported.status(), imported.raw());
        assertEquals("gv_acct", ads("gv_ad1").get(0).get("adSource").get("adAccountId").asText(), "the file's ad account reached the clicked ad");
        attributionRow("google_v2_campaign", "gv_c1", "clicks,cost", row -> {
            assertEquals(2, row.get("clicks").asLong(), "both clicks are the campaign's");
            assertMoney("4.00", row.get("cost"));
        });
    }

    @Test
    void aLinkedInSourceIsACampaign() {
        source("""
                {"name":"LI sponsored","integrationType":"LINKEDIN","adSourceId":"li_c7","accountId":"li_acct"}""");
        click("""
                {"referrerUrl":"https://shop.example/","email":"li@example.com","integrationType":"LINKEDIN","adSourceId":"li_c7",
                 "date":"%sT08:00:00Z"}""".formatted(yesterday()));
        attributionRow("linkedin_campaign", "li_c7", "clicks,name", row -> {
            assertEquals(1, row.get("clicks").asLong());
            assertEquals("LI sponsored", row.get("name").asText());
        });
        attributionRow("linkedin_ad", "li_c7", "clicks", row -> assertEquals(1, row.get("clicks").asLong(), "the source entry's own row"));
        assertEquals(0, ads("li_c7").size(), "the source entry is not an ad");
        Response accounts = get(key, "/api/v1.0/ad-accounts?ids=li_acct");
        assertEquals("LINKEDIN", accounts.body().get("result").get(0).get("type").asText());
    }
}
