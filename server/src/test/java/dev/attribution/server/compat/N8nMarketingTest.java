package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link N8nApiTest} on the node's marketing resources: sources and their custom costs, the demo account's ads, ad
 * accounts and keywords, clicks, URL rules.
 */
@MicronautTest(transactional = false)
class N8nMarketingTest extends N8nApiTest {

    // ---------------------------------------------------------------- sources, custom costs, ads, ad accounts, keywords

    @Test
    void sourceCreateGetUpdateDeleteAndCustomCosts() {
        JsonNode source = applied(n8n, n8n.request("POST", "/sources", """
                {"name":"N8n Newsletter","category":"","goal":"","trafficSource":"","isDisregard":false,"isOrganic":true}""",
                null), "CREATE_SOURCE_LINK").get("result");
        String tag = source.get("tag").asText();
        assertTrue(tag.startsWith("@"), source.toString());

        List<JsonNode> found = n8n.all("/sources", q("includeOrganic", true, "includeDisregarded", false, "tag", tag));
        assertEquals(1, found.size(), found.toString());

        // Custom cost on that source
        JsonNode cost = applied(n8n, n8n.request("POST", "/custom-costs", """
                {"startDate":"2026-11-01T00:00:00","frequency":"DAILY","cost":12.5,"tags":["%s"],"name":"N8n sponsor"}"""
                .formatted(tag), null), "CREATE_CUSTOM_COST").get("result");
        String costId = cost.get("id").asText();
        List<JsonNode> costs = n8n.all("/custom-costs", q("ids", costId, "fromDate", "2026-11-01T00:00:00"));
        assertEquals(1, costs.size(), costs.toString());
        ok(n8n.request("PUT", "/custom-costs/" + costId, """
                {"startDate":"2026-11-02T00:00:00","frequency":"ONE_TIME","cost":30,"tags":["%s"]}""".formatted(tag), null));
        await(() -> {
            JsonNode c = n8n.get("/custom-costs", q("ids", costId, "pageSize", 50)).result();
            return c.size() == 1 && "ONE_TIME".equals(c.get(0).get("frequency").asText()) ? c : null;
        });
        processed(n8n, n8n.request("DELETE", "/custom-costs/" + costId, null, null));
        assertEquals(0, n8n.get("/custom-costs", q("ids", costId, "pageSize", 50)).result().size());

        // Source update: the tag goes into the path unencoded; fields as entered, blank ones included
        ok(n8n.request("PUT", "/sources/" + tag, """
                {"name":"N8n Newsletter Renamed","category":"","goal":"","trafficSource":"","tag":"","isOrganic":true}""", null));
        await(() -> {
            JsonNode s = n8n.get("/sources", q("tag", tag, "pageSize", 50)).result();
            return s.size() == 1 && "N8n Newsletter Renamed".equals(s.get(0).get("name").asText()) ? s : null;
        });
        processed(n8n, n8n.request("DELETE", "/sources/" + tag, null, null));
        assertEquals(0, n8n.get("/sources", q("tag", tag, "pageSize", 50)).result().size());
    }

    @Test
    void adsAdAccountsKeywordsOnTheDemoAccount() {
        List<JsonNode> ads = demo.all("/ads", q());
        assertEquals(seeded.get("ads").asInt(), ads.size());
        ok(demo.get("/ads", q("integrationType", "FACEBOOK", "pageSize", 50)));
        List<JsonNode> accounts = demo.all("/ad-accounts", q());
        assertEquals(seeded.get("adAccounts").asInt(), accounts.size());
        Answer some = demo.get("/ad-accounts", q("ids", accounts.get(0).get("id").asText(), "fields", "name,type", "pageSize", 50));
        ok(some);
        assertEquals(1, some.result().size(), some.toString());
        assertNotNull(demo.all("/keywords", q()));
        ok(demo.get("/keywords", q("adgroupId", "123", "pageSize", 50)));
        List<JsonNode> sources = demo.all("/sources", q("includeOrganic", true));
        assertFalse(sources.isEmpty());
    }

    // ---------------------------------------------------------------- clicks

    @Test
    void clickCreateAndGet() {
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"clicker+n8n@example.com"}""", null), "CREATE_LEAD");
        // the options added but left empty, integrationType not added
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/landing?utm_source=n8n","phones":["+15550004444"],
                 "adSourceClickId":"","adSourceId":"","adspendAdId":"","date":"","email":"clicker+n8n@example.com","ip":"",
                 "isOrganic":false,"previousUrl":"","sessionId":"","sourceLinkTag":"","tag":"","userAgent":""}""", null),
                "CREATE_CLICK");
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/pricing","email":"clicker+n8n@example.com","date":"2026-11-20T08:00:00",
                 "ip":"10.4.4.4","userAgent":"Mozilla/5.0"}""", null), "CREATE_CLICK");
        List<JsonNode> clicks = n8n.all("/leads/clicks", q("emails", "\"clicker+n8n@example.com\""));
        assertEquals(2, clicks.size(), clicks.toString());
        Answer one = n8n.get("/leads/clicks", q("email", "clicker+n8n@example.com", "pageSize", 50,
                "fromDate", "2026-11-01T00:00:00"));
        ok(one);
        assertEquals(2, one.result().size(), one.toString());
        List<JsonNode> demoClicks = demo.all("/leads/clicks", q("leadId", demo.get("/leads", q("pageSize", 1)).result().get(0).get("id").asText()));
        assertNotNull(demoClicks);
    }

    @Test
    void clickWithAnAdPlatform() {
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/?fbclid=abc","integrationType":"FACEBOOK","adSourceId":"120000000001",
                 "adspendAdId":"","adSourceClickId":"abc","email":"fb+click@example.com","isOrganic":false,"sourceLinkTag":""}""",
                null), "CREATE_CLICK");
    }

    // ---------------------------------------------------------------- URL rules

    @Test
    void urlRuleCreateGetUpdateDelete() {
        Answer created = n8n.request("POST", "/url-rules", """
                {"name":"N8n rule","tag":"!n8n-visit","wordsToMatch":["n8n-landing"],"sourceRuleTypes":["REFERRER_URL"],
                 "applyBaseDomain":false,"disregardSource":false,"isEnabled":true,"createLeadStage":false}""", null);
        ok(created);
        String id = created.result().asText();
        assertTrue(id.startsWith("ur-"), created.toString());

        List<JsonNode> rules = n8n.all("/url-rules", q("ids", "\"" + id + "\"", "tag", "!n8n-visit", "urlRuleActionType", "ACTION"));
        assertEquals(1, rules.size(), rules.toString());
        Answer one = n8n.get("/url-rules/" + id, null);
        ok(one);
        assertEquals(1, one.result().size());

        ok(n8n.request("PUT", "/url-rules/" + id, """
                {"name":"N8n rule renamed","tag":"!n8n-visit","wordsToMatch":["n8n-landing","n8n-pricing"],
                 "sourceRuleTypes":["REFERRER_URL","PREVIOUS_URL"],"wordsNotToMatch":["admin"],"trafficSourceToMatch":["utm_source"],
                 "scores":[{"keywords":["buy"],"score":5}],"isEnabled":false}""", null));
        JsonNode rule = n8n.get("/url-rules/" + id, null).result().get(0);
        assertEquals("N8n rule renamed", rule.get("name").asText());
        assertFalse(rule.get("isEnabled").asBoolean());
        ok(n8n.request("DELETE", "/url-rules/" + id, null, null));
        assertEquals(0, n8n.get("/url-rules/" + id, null).result().size(), "synchronous");
    }

    @Test
    void urlRuleLeadStageFlavour() {
        Answer created = n8n.request("POST", "/url-rules", """
                {"name":"N8n stage rule","tag":"Booked","wordsToMatch":["thank-you"],"sourceRuleTypes":["PREVIOUS_URL"],
                 "trafficSourceCategory":"Newsletter","sourceCategory":"Email","createLeadStage":true}""", null);
        ok(created);
        String id = created.result().asText();
        ok(n8n.request("PUT", "/url-rules/" + id, """
                {"name":"N8n stage rule","tag":"Booked call","wordsToMatch":["thank-you"],"sourceRuleTypes":["PREVIOUS_URL"]}""", null));
        JsonNode rule = n8n.get("/url-rules/" + id, null).result().get(0);
        assertEquals("LEAD_STAGE", rule.get("urlRuleActionType").asText(), rule.toString());
        assertEquals("Email", rule.get("sourceCategory").asText(), "omitted fields keep their value (spec 4.9): " + rule);
        List<JsonNode> stageRules = n8n.all("/url-rules", q("urlRuleActionType", "LEAD_STAGE", "fromDate", "2026-11-01T00:00:00"));
        assertFalse(stageRules.isEmpty());
    }
}
