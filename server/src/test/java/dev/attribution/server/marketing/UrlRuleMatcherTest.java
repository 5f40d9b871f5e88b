package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.urlrules.UrlRuleEngine;
import dev.attribution.command.urlrules.UrlRuleMatcher;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Enabled rules of an account applied to a lead: tags, stage, and a low-priority source that never overrides. */
@MicronautTest(transactional = false)
class UrlRuleMatcherTest extends MarketingApiTest {

    @Inject
    UrlRuleMatcher matcher;

    @Test
    void matchedRulesApplyTheirTagOrStageToTheLead() throws Exception {
        String key = newAccount();
        post(key, "/api/v1.0/url-rules", """
                {"name":"pricing","tag":"!viewed-pricing","wordsToMatch":["pricing"],"sourceRuleTypes":["PREVIOUS_URL"]}""");
        post(key, "/api/v1.0/url-rules", """
                {"name":"thanks","tag":"Booked","wordsToMatch":["thank-you"],"sourceRuleTypes":["PREVIOUS_URL"],"createLeadStage":true}""");
        post(key, "/api/v1.0/url-rules", """
                {"name":"fb","tag":"@facebook","wordsToMatch":["facebook.com"],"sourceRuleTypes":["REFERRER_URL"],"disregardSource":true}""");
        String paused = post(key, "/api/v1.0/url-rules", """
                {"name":"off","tag":"!paused","wordsToMatch":["pricing-old"],"sourceRuleTypes":["PREVIOUS_URL"]}""").body().get("result").asText();
        put(key, "/api/v1.0/url-rules/" + paused, "{\"isEnabled\":false}");
        JsonNode lead = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"visit@example.com\",\"tags\":[\"@google\"]}").get("result");
        String account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        try (Connection c = TestStack.get().connect()) {
            var applied = matcher.apply(c, account, lead.get("id").asText(),
                    new UrlRuleEngine.Visit("https://shop.com/pricing-old/thank-you", "https://facebook.com/ad"), Instant.now());
            assertEquals(2, applied.size(), "the paused rule and the low-priority source are not applied");
        }
        JsonNode after = get(key, "/api/v1.0/leads?ids=" + list(lead.get("id").asText())).body().get("result").get(0);
        assertEquals("[\"!viewed-pricing\",\"@google\"]", after.get("tags").toString());
        assertEquals("Booked", after.get("currentStage").get("name").asText());
    }
}
