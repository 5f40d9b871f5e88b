package dev.attribution.server.glue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** POST /clicks runs the account's enabled URL rules (marketing's engine) over the visit and applies tag and stage. */
@MicronautTest(transactional = false)
class ClickUrlRulesTest extends ApiTest {

    @Test
    void aClickAppliesMatchingEnabledRulesToItsLead() {
        String key = newAccount();
        assertEquals(200, post(key, "/api/v1.0/url-rules", """
                {"name":"pricing","tag":"!viewed-pricing","wordsToMatch":["pricing"],"sourceRuleTypes":["PREVIOUS_URL"]}""").status());
        assertEquals(200, post(key, "/api/v1.0/url-rules", """
                {"name":"thanks","tag":"Booked","wordsToMatch":["thank-you"],"sourceRuleTypes":["REFERRER_URL"],"createLeadStage":true}""").status());
        String paused = post(key, "/api/v1.0/url-rules", """
                {"name":"off","tag":"!paused","wordsToMatch":["pricing"],"sourceRuleTypes":["PREVIOUS_URL"]}""").body().get("result").asText();
        put(key, "/api/v1.0/url-rules/" + paused, "{\"isEnabled\":false}");
        JsonNode s = write(key, "POST", "/api/v1.0/clicks", """
                {"email":"clicker@glue.com","previousUrl":"https://shop.com/pricing","referrerUrl":"https://shop.com/thank-you"}""");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        JsonNode lead = get(key, "/api/v1.0/leads?emails=" + list("clicker@glue.com")).body().get("result").get(0);
        assertEquals("[\"!viewed-pricing\"]", lead.get("tags").toString());
        assertEquals("Booked", lead.get("currentStage").get("name").asText());
    }
}
