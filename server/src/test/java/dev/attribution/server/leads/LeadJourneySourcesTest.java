package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sl} journey events (spec 2.17) carry the source's category and traffic source and the ad hierarchy above the
 * click: a Facebook ad-set source has ad account, campaign, ad set and ad; a TikTok ad group has no campaign; a
 * Google source sits at campaign level (no ad set); an organic source shows only traffic source and category. A click
 * on an email link (a source whose category or traffic source is named Email) is marked {@code emailSource}.
 */
@MicronautTest(transactional = false)
class LeadJourneySourcesTest extends LeadsApiTest {

    String key;

    @BeforeAll
    void data() {
        key = newAccount();
        Response spend = post(key, "/api/v1.0/ad-spend/import", """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend
                FACEBOOK,act-1,camp-1,set-1,ad-1,2024-01-01,10
                TIKTOK,tt-acct,,tt-group,tt-ad,2024-01-01,5
                GOOGLE,g-acct,g-camp,g-group,g-ad,2024-01-01,7
                """);
        assertEquals(200, spend.status(), spend.raw());
        processed(write(key, "POST", "/api/v1.0/sources", """
                {"name":"Newsletter","category":"Email","trafficSource":"Mailchimp","isOrganic":true}"""));
        processed(write(key, "POST", "/api/v1.0/sources", """
                {"name":"FB Prospecting","category":"Paid social","integrationType":"FACEBOOK","adSourceId":"set-1","accountId":"act-1","campaignId":"camp-1"}"""));
        click("@fb-prospecting", "FACEBOOK", "set-1", "ad-1", "2024-01-01T00:00:00Z");
        click("@tt", "TIKTOK", "tt-group", null, "2024-01-02T00:00:00Z");
        click("@google", "GOOGLE", "g-camp", null, "2024-01-03T00:00:00Z");
        processed(write(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://mail.test/","email":"src@journey.test","sourceLinkTag":"@newsletter","date":"2024-01-04T00:00:00Z"}"""));
    }

    private void click(String tag, String platform, String adSourceId, String adId, String date) {
        processed(write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test/\",\"email\":\"src@journey.test\",\"sourceLinkTag\":\""
                + tag + "\",\"integrationType\":\"" + platform + "\",\"adSourceId\":\"" + adSourceId + "\""
                + (adId == null ? "" : ",\"adspendAdId\":\"" + adId + "\"") + ",\"date\":\"" + date + "\"}"));
    }

    private static void processed(JsonNode status) {
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
    }

    private JsonNode events() {
        Response r = get(key, "/api/v1.0/leads/journey?emails=src@journey.test&fields=journey");
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result").get(0).get("journey");
    }

    @Test
    void adSetSourceHasTheWholeHierarchyAndItsSourceLink() {
        JsonNode fb = events().get(0);
        assertEquals("FB Prospecting", fb.get("name").asText(), fb.toString());
        assertEquals("Paid social", fb.get("category").get("name").asText());
        assertEquals("act-1", fb.get("adAccount").get("adSourceId").asText());
        assertEquals("camp-1", fb.get("campaign").get("adSourceId").asText());
        assertEquals("set-1", fb.get("adSet").get("adSourceId").asText());
        assertEquals("ad-1", fb.get("ad").get("adSourceId").asText());
        assertFalse(fb.get("emailSource").asBoolean(), fb.toString());
    }

    @Test
    void platformWithoutCampaignsHasAdSetAndNoCampaign() {
        JsonNode tt = events().get(1);
        assertEquals("tt-acct", tt.get("adAccount").get("adSourceId").asText(), tt.toString());
        assertEquals("tt-group", tt.get("adSet").get("adSourceId").asText());
        assertFalse(tt.has("campaign"), tt.toString());
    }

    @Test
    void campaignLevelSourceHasCampaignWithoutAdSet() {
        JsonNode google = events().get(2);
        assertEquals("g-camp", google.get("campaign").get("adSourceId").asText(), google.toString());
        assertEquals("g-acct", google.get("adAccount").get("adSourceId").asText());
        assertFalse(google.has("adSet") || google.has("ad"), google.toString());
    }

    @Test
    void organicSourceHasOnlyTrafficSourceAndCategory() {
        JsonNode mail = events().get(3);
        assertEquals("Email", mail.get("category").get("name").asText(), mail.toString());
        assertEquals("Mailchimp", mail.get("trafficSource").get("name").asText());
        assertFalse(mail.has("adAccount") || mail.has("campaign") || mail.has("adSet") || mail.has("ad"), mail.toString());
        assertTrue(mail.get("emailSource").asBoolean(), "the Email category makes it an email link: " + mail);
    }
}
