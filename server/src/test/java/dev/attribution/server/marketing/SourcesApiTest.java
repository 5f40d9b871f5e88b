package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sources (spec 4.8, 2.13, 3.2): async create/update/delete, the integrationType rules, filters, soft delete. */
@MicronautTest(transactional = false)
class SourcesApiTest extends AccountApiTest {

    static final String PATH = "/api/v1.0/sources";
    JsonNode created(String json) {
        return created(PATH, "CREATE_SOURCE_LINK", json);
    }

    @Test
    void createRendersTheSourceWithEpochMillis() {
        long before = System.currentTimeMillis() - 1000;
        JsonNode s = created("""
                {"name":"Spring Promo","category":"Paid","goal":"Leads","trafficSource":"Newsletter","isDisregard":true}""");
        assertEquals("Spring Promo", s.get("name").asText());
        assertEquals("@spring-promo", s.get("tag").asText());
        assertTrue(s.get("disregarded").asBoolean());
        assertFalse(s.get("organic").asBoolean());
        assertEquals("Paid", s.get("category").get("name").asText());
        assertEquals("Leads", s.get("goal").get("name").asText());
        assertEquals("Newsletter", s.get("trafficSource").get("name").asText());
        assertFalse(s.has("adSource"), "hand-made sources have no adSource");
        assertTrue(s.get("creationDate").isIntegralNumber());
        assertTrue(s.get("creationDate").asLong() >= before);
    }

    @Test
    void sameNameGetsADistinctTag() {
        created("{\"name\":\"Promo\"}");
        assertEquals("@promo-2", created("{\"name\":\"Promo\"}").get("tag").asText());
    }

    @Test
    void createNeedsAName() {
        assertError(post(key, PATH, "{\"category\":\"x\"}"), "Missing required field: name");
    }

    @Test
    void integrationTypeIsAFixedSet() {
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"BING\",\"adSourceId\":\"1\",\"accountId\":\"2\"}"),
                "Invalid integrationType 'BING'. Accepted values: GOOGLE, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN");
    }

    @Test
    void integrationTypeNeedsAdSourceIdAndAccountId() {
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"TIKTOK\",\"accountId\":\"2\"}"), "Missing required field: adSourceId");
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"TIKTOK\",\"adSourceId\":\"1\"}"), "Missing required field: accountId");
    }

    @Test
    void googleNeedsAdspendSubType() {
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"GOOGLE\",\"adSourceId\":\"1\",\"accountId\":\"2\"}"),
                "Missing required field: adspendSubType");
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"GOOGLE\",\"adSourceId\":\"1\",\"accountId\":\"2\",\"adspendSubType\":\"SEARCH\"}"),
                "Invalid adspendSubType 'SEARCH'. Accepted values: DISPLAY, VIDEO");
    }

    @Test
    void facebookNeedsCampaignId() {
        assertError(post(key, PATH, "{\"name\":\"a\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"1\",\"accountId\":\"2\"}"),
                "Missing required field: campaignId");
    }

    @Test
    void platformSourceCarriesAdSourceAndCreatesTheAdAccount() {
        JsonNode s = created("""
                {"name":"G display","integrationType":"GOOGLE","adSourceId":"ag_77","accountId":"123-456","adspendSubType":"DISPLAY"}""");
        assertEquals("ag_77", s.get("adSource").get("adSourceId").asText());
        assertEquals("123-456", s.get("adSource").get("adAccountId").asText());
        assertEquals("GOOGLE", s.get("adSource").get("platform").asText());
        assertEquals("123-456", get(key, "/api/v1.0/ad-accounts").body().get("result").get(0).get("id").asText());
    }

    @Test
    void listFilters() {
        created("{\"name\":\"Organic Blog\",\"isOrganic\":true}");
        created("{\"name\":\"Ignored\",\"isDisregard\":true}");
        created("{\"name\":\"TT\",\"integrationType\":\"TIKTOK\",\"adSourceId\":\"tt_1\",\"accountId\":\"tta\"}");
        assertEquals(3, get(key, PATH).body().get("result").size());
        assertEquals(2, get(key, PATH + "?includeOrganic=false").body().get("result").size());
        assertEquals(2, get(key, PATH + "?includeDisregarded=false").body().get("result").size());
        assertEquals(1, get(key, PATH + "?integrationType=TIKTOK").body().get("result").size());
        assertEquals(1, get(key, PATH + "?adSourceIds=tt_1").body().get("result").size());
        assertEquals(1, get(key, PATH + "?name=organic%20blog").body().get("result").size());
        assertEquals(1, get(key, PATH + "?tag=" + enc("@ORGANIC-BLOG")).body().get("result").size());
        assertEquals(0, get(key, PATH + "?tag=" + enc("@organic-blog") + "&name=TT").body().get("result").size());
        assertError(get(key, PATH + "?integrationType=MYSPACE"), "Invalid integrationType 'MYSPACE'. Accepted values: "
                + "FACEBOOK, GOOGLE, GOOGLE_V2, TIKTOK, SNAPCHAT, LINKEDIN, TWITTER, PINTEREST, BING, REDDIT, APPLOVIN, WHOP_ADS");
        JsonNode page = get(key, PATH + "?pageSize=2").body();
        assertEquals(2, page.get("result").size());
        assertEquals(1, get(key, PATH + "?pageSize=2&pageId=" + enc(page.get("nextPageId").asText())).body().get("result").size());
    }

    @Test
    void putChangesFieldsAndAddsTheAtSign() {
        created("{\"name\":\"Old\"}");
        JsonNode status = write(key, "PUT", PATH + "/@old", "{\"name\":\"New\",\"tag\":\"renamed\",\"trafficSource\":\"Podcast\",\"isOrganic\":true}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode s = get(key, PATH + "?tag=" + enc("@renamed")).body().get("result").get(0);
        assertEquals("New", s.get("name").asText());
        assertEquals("Podcast", s.get("trafficSource").get("name").asText());
        assertTrue(s.get("organic").asBoolean());
    }

    @Test
    void putReattributesTheSourcesPastClicksAndTags() {
        created("{\"name\":\"Promo\"}");
        JsonNode click = write(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"re@example.com\","
                + "\"sourceLinkTag\":\"@promo\"}");
        assertEquals("PROCESSED", click.get("status").asText(), click.toString());
        JsonNode status = write(key, "PUT", PATH + "/@promo", "{\"tag\":\"@promo-2026\",\"isOrganic\":true}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode clicks = get(key, "/api/v1.0/leads/clicks?emails=" + enc("\"re@example.com\"")).body().get("result");
        assertEquals("@promo-2026", clicks.get(0).get("sourceLinkTag").asText(), clicks.toString());
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + enc("\"re@example.com\"")).body().get("result").get(0);
        assertEquals("[\"@promo-2026\"]", lead.get("tags").toString(), "the lead's source tag follows the rename");
        assertEquals("@promo-2026", lead.get("firstSource").get("tag").asText());
        assertTrue(lead.get("firstSource").get("organic").asBoolean(), "the click now counts as organic: " + lead);
    }

    /** A category, goal or traffic source sent blank or null is cleared; one not sent is kept (spec 4.8). */
    @Test
    void putClearsNamesSentBlankOrNullAndKeepsTheOthers() {
        created("""
                {"name":"Clear me","category":"Paid","goal":"Leads","trafficSource":"Newsletter"}""");
        JsonNode status = write(key, "PUT", PATH + "/@clear-me", "{\"category\":null,\"goal\":\" \",\"name\":\"\"}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode s = get(key, PATH + "?tag=" + enc("@clear-me")).body().get("result").get(0);
        assertEquals("Clear me", s.get("name").asText(), "a blank name is no change");
        assertTrue(s.path("category").isMissingNode() || s.get("category").isNull(), s.toString());
        assertTrue(s.path("goal").isMissingNode() || s.get("goal").isNull(), s.toString());
        assertEquals("Newsletter", s.get("trafficSource").get("name").asText(), "not sent: kept");
        assertError(put(key, PATH + "/@clear-me", "{\"goal\":5}"), "goal must be a string");
    }

    @Test
    void putRefusesNonSourcePrefixes() {
        created("{\"name\":\"Src\"}");
        for (String bad : new String[]{"$sale", "!action", "#sub"}) {
            assertError(put(key, PATH + "/@src", "{\"tag\":\"" + bad + "\"}"), "Invalid tag");
        }
    }

    @Test
    void putRefusesATagAnotherSourceUses() {
        created("{\"name\":\"One\"}");
        created("{\"name\":\"Two\"}");
        assertError(put(key, PATH + "/@one", "{\"tag\":\"@two\"}"), "The tag @two is already used by another source");
    }

    @Test
    void putIsStrict() {
        created("{\"name\":\"Strict\"}");
        assertError(put(key, PATH + "/@strict", "{\"colour\":\"red\"}"), "Unknown field: colour");
        assertError(put(key, PATH + "/@strict?x=1", "{\"name\":\"a\"}"), "Unknown parameter: x");
        assertError(delete(key, PATH + "/@strict?x=1"), "Unknown parameter: x");
        assertError(put(key, PATH + "/@nope", "{\"name\":\"a\"}"), "Source not found: @nope");
    }

    @Test
    void deleteIsSoft() throws Exception {
        created("{\"name\":\"Gone\"}");
        JsonNode status = write(key, "DELETE", PATH + "/@gone", null);
        assertEquals("PROCESSED", status.get("status").asText());
        assertEquals(0, get(key, PATH + "?tag=" + enc("@gone")).body().get("result").size());
        try (var c = dev.attribution.testing.TestStack.get().connect(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT count(*) FROM source_links WHERE tag = '@gone' AND deleted_at IS NOT NULL")) {
            rs.next();
            assertTrue(rs.getInt(1) >= 1, "the row stays, marked deleted");
        }
        assertEquals("@gone", created("{\"name\":\"Gone\"}").get("tag").asText(), "the tag is free again");
    }
}
