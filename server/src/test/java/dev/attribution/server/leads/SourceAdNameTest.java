package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ad name of a source (spec 2.6 {@code sourceLinkAd.name}) is the name of the account's own ad: another account
 * with an ad of the same id and platform must not lend its name, in GET /leads, an order's result or GET /sales. (The
 * source statements once resolved the account expression inside the ad lookup to the ads row itself: the lookup then
 * ignored the account, and picked the other account's ad, written first.)
 */
@MicronautTest(transactional = false)
class SourceAdNameTest extends LeadsApiTest {

    @Test
    void theAdNameIsTheAccountsOwnEvenWhenAnotherAccountHasAnAdOfTheSameIdAndPlatform() {
        String other = newAccount();
        spend(other, "FACEBOOK,other-act,other-camp,other-set,shared-ad,Other account's ad");
        String key = newAccount();
        spend(key, "FACEBOOK,own-act,own-camp,own-set,shared-ad,Own ad");
        JsonNode click = processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://a.test/\",\"email\":\"named@ad.test\","
                + "\"sourceLinkTag\":\"@ad-click\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"own-set\",\"adspendAdId\":\"shared-ad\","
                + "\"date\":\"2026-01-01T00:00:00Z\"}", "CREATE_CLICK");
        JsonNode listed = get(key, "/api/v1.0/leads?emails=" + list("named@ad.test")).body().get("result").get(0);
        assertEquals("Own ad", listed.path("firstSource").path("sourceLinkAd").path("name").asText(), listed.toString());
        assertEquals("Own ad", listed.path("lastSource").path("sourceLinkAd").path("name").asText(), listed.toString());
        JsonNode sales = processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"named@ad.test\",\"orderId\":\"ad-name-1\","
                + "\"date\":\"2026-01-02T00:00:00Z\",\"items\":[{\"name\":\"Widget\",\"price\":10}]}", "CREATE_ORDER");
        assertEquals("Own ad", sales.get(0).path("firstSource").path("sourceLinkAd").path("name").asText(), sales.toString());
        JsonNode sale = get(key, "/api/v1.0/sales?emails=" + list("named@ad.test")).body().get("result").get(0);
        assertEquals("Own ad", sale.path("lastSource").path("sourceLinkAd").path("name").asText(), sale.toString());
        assertEquals(click.get("leadId").asText(), sale.path("lead").path("id").asText());
    }

    private void spend(String key, String row) {
        Response r = sendWithHeaders("POST", "/api/v1.0/ad-spend/import", "platform,ad_account_id,campaign_id,ad_set_id,ad_id,ad_name,date,spend\n"
                + row + ",2026-01-01,10\n", java.util.Map.of("API-Key", key, "Content-Type", "text/csv"));
        assertEquals(200, r.status(), r.raw());
    }
}
