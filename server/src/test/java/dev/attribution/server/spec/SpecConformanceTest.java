package dev.attribution.server.spec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22 (spec conformance): one test per rule, named after its spec section ({@code s000_2_6_...} is document
 * 000, section 2.6), each written as a client would, through HTTP only, asserting exact statuses, messages and values.
 */
@MicronautTest(transactional = false)
class SpecConformanceTest extends ApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newUnthrottledAccount("America/New_York", dev.attribution.api.auth.Roles.ALL);
    }

    private JsonNode only(String path) {
        Response r = get(key, path);
        assertEquals(200, r.status(), r.raw());
        assertEquals(1, r.body().get("result").size(), r.raw());
        return r.body().get("result").get(0);
    }

    // ---- 000 §2.2 Date and value formats ----

    /**
     * 000 §2.2 rule 4 (issue 22 item 19): a bare upper bound is 23:59:59 of that day in the account zone; the next
     * day's 00:00:00 is outside, for tag dates on GET /leads and for GET /leads/clicks.
     */
    @Test
    void s000_2_2_rule4_bareUpperBoundExcludesTheNextMidnight() {
        String late = processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"late22@example.com\",\"tags\":[\"!probe-22\"],"
                + "\"tagsDate\":\"2026-10-10T23:59:59-04:00\"}", "CREATE_LEAD").get("id").asText();
        processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"midnight22@example.com\",\"tags\":[\"!probe-22\"],"
                + "\"tagsDate\":\"2026-10-11T00:00:00-04:00\"}", "CREATE_LEAD");
        Response leads = get(key, "/api/v1.0/leads?tags=" + enc("\"!probe-22\"") + "&tagFromDate=2026-10-10&tagToDate=2026-10-10");
        assertEquals(200, leads.status(), leads.raw());
        assertEquals(1, leads.body().get("result").size(), leads.raw());
        assertEquals(late, leads.body().get("result").get(0).get("id").asText());
        Response withEmails = get(key, "/api/v1.0/leads?emails=" + enc("\"late22@example.com\",\"midnight22@example.com\"")
                + "&tagFromDate=2026-10-10&tagToDate=2026-10-10");
        assertEquals(1, withEmails.body().get("result").size(), withEmails.raw());

        for (String date : new String[] {"2026-10-10T23:59:59-04:00", "2026-10-11T00:00:00-04:00"}) {
            processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"clicks22@example.com\","
                    + "\"date\":\"" + date + "\"}", "CREATE_CLICK");
        }
        Response clicks = get(key, "/api/v1.0/leads/clicks?emails=" + enc("\"clicks22@example.com\"") + "&fromDate=2026-10-10&toDate=2026-10-10");
        assertEquals(200, clicks.status(), clicks.raw());
        assertEquals(1, clicks.body().get("result").size(), clicks.raw());
        assertTrue(clicks.body().get("result").get(0).get("date").asText().startsWith("Sat Oct 10 23:59:59"), clicks.raw());
    }

    // ---- 000 §2.5 Lead ----

    /**
     * 000 §2.5, §2.17 (issue 22 item 2): after an order with {@code parentEmail} the buyer renders its origin lead as
     * {@code originLead} (marked {@code isOriginLead: true}); on the journey, each linked lead says whether it is the
     * origin.
     */
    @Test
    void s000_2_5_originLeadAfterAnOrderWithParentEmail() {
        processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"child25@example.com\",\"parentEmail\":\"parent25@example.com\","
                + "\"items\":[{\"name\":\"Thing\",\"price\":10}]}", "CREATE_ORDER");
        JsonNode child = only("/api/v1.0/leads?emails=" + enc("\"child25@example.com\""));
        assertEquals("parent25@example.com", child.path("originLead").path("email").asText(), child.toString());
        assertTrue(child.path("originLead").path("isOriginLead").asBoolean(), child.toString());
        JsonNode parent = only("/api/v1.0/leads?emails=" + enc("\"parent25@example.com\""));
        assertFalse(parent.has("originLead"), parent.toString());

        JsonNode childJourney = only("/api/v1.0/leads/journey?emails=" + enc("\"child25@example.com\"") + "&fields=linkedLeads");
        JsonNode linkedParent = childJourney.get("linkedLeads").get(0);
        assertEquals("parent25@example.com", linkedParent.get("email").asText(), childJourney.toString());
        assertTrue(linkedParent.path("isOriginLead").asBoolean(), childJourney.toString());
        JsonNode parentJourney = only("/api/v1.0/leads/journey?emails=" + enc("\"parent25@example.com\"") + "&fields=linkedLeads");
        assertTrue(parentJourney.get("lead").get("isOriginLead").asBoolean(), parentJourney.toString());
        JsonNode linkedChild = parentJourney.get("linkedLeads").get(0);
        assertEquals("child25@example.com", linkedChild.get("email").asText(), parentJourney.toString());
        assertTrue(linkedChild.has("isOriginLead") && !linkedChild.get("isOriginLead").asBoolean(), parentJourney.toString());
    }

    // ---- 000 §2.6 Attribution ----

    /**
     * 000 §2.6 (issue 22 item 1): an Attribution names the source as GET /sources does (not its tag slug), carries its
     * id, its disregarded flag, traffic source, goal and category, on leads, sales, calls, carts and subscriptions.
     */
    @Test
    void s000_2_6_attributionIsTheSourceAsGetSourcesRendersIt() {
        JsonNode source = processed(key, "POST", "/api/v1.0/sources", """
                {"name":"Probe Src X","category":"Paid","goal":"Leads","trafficSource":"Newsletter","isDisregard":true}""",
                "CREATE_SOURCE_LINK");
        assertEquals("@probe-src-x", source.get("tag").asText());
        JsonNode listed = only("/api/v1.0/sources?includeDisregarded=true&tag=" + enc("@probe-src-x"));
        String email = "attr@example.com";
        processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"" + email
                + "\",\"sourceLinkTag\":\"@probe-src-x\",\"date\":\"2026-01-01T10:00:00Z\"}", "CREATE_CLICK");
        processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"" + email + "\",\"orderId\":\"attr-1\",\"date\":\"2026-02-01T12:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}", "CREATE_ORDER");
        processed(key, "POST", "/api/v1.0/calls", "{\"name\":\"Intro\",\"email\":\"" + email + "\",\"date\":\"2026-01-05T15:00:00Z\"}", "CREATE_CALL");
        processed(key, "POST", "/api/v1.0/carts", "{\"email\":\"" + email + "\",\"date\":\"2026-01-20T15:00:00Z\","
                + "\"items\":[{\"name\":\"Widget\",\"price\":10}]}", "CREATE_CART");
        processed(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"" + email + "\",\"status\":\"ACTIVE\","
                + "\"startDate\":\"2026-01-15\",\"price\":9.99,\"periodicity\":\"MONTH\"}", "CREATE_SUBSCRIPTION");
        String q = "?emails=" + enc("\"" + email + "\"");
        for (String path : new String[] {"/api/v1.0/leads", "/api/v1.0/sales", "/api/v1.0/calls", "/api/v1.0/carts", "/api/v1.0/subscriptions"}) {
            JsonNode item = only(path + q);
            for (String side : new String[] {"firstSource", "lastSource"}) {
                JsonNode a = item.get(side);
                String where = path + " " + side + ": " + a;
                assertEquals("Probe Src X", a.path("name").asText(), where);
                assertEquals("@probe-src-x", a.path("tag").asText(), where);
                assertTrue(a.path("disregarded").asBoolean(), where);
                assertTrue(a.hasNonNull("sourceLinkId"), where);
                assertEquals(listed.get("trafficSource"), a.get("trafficSource"), where);
                assertEquals(listed.get("goal"), a.get("goal"), where);
                assertEquals(listed.get("category"), a.get("category"), where);
                assertEquals("Newsletter", a.path("trafficSource").path("name").asText(), where);
            }
        }
    }

    // ---- 000 §2.7, §2.8 Sale and Call ----

    /** 000 §2.7, §2.8 (issue 22 item 3): every sale and call carries {@code score}, 0 (unqualified, 2.15) by default. */
    @Test
    void s000_2_7_and_2_8_scoreOnEverySaleAndCall() {
        processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"score@example.com\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}",
                "CREATE_ORDER");
        processed(key, "POST", "/api/v1.0/calls", "{\"name\":\"Intro\",\"email\":\"score@example.com\"}", "CREATE_CALL");
        for (String path : new String[] {"/api/v1.0/sales", "/api/v1.0/calls"}) {
            JsonNode item = only(path + "?emails=" + enc("\"score@example.com\""));
            assertTrue(item.path("score").isNumber(), path + ": " + item);
            assertEquals(0, item.get("score").decimalValue().signum(), path + ": " + item);
        }
    }

    // ---- 000 §2.16 Conversion path ----

    /**
     * 000 §2.6, §2.16 (issue 22 item 4): a touch's {@code sourceLinkAd.name} in GET /conversion-paths is the ad's name
     * as GET /ads renders it (it was never present). The ad is named by the ad-spend import's {@code ad_name} column.
     */
    @Test
    void s000_2_16_sourceLinkAdNamedAsGetAdsNamesIt() {
        Response imported = post(key, "/api/v1.0/ad-spend/import",
                "platform,ad_account_id,campaign_id,ad_set_id,ad_id,ad_name,date,spend\nFACEBOOK,act-216,camp-216,set-216,ad-216,Spring Video,2026-11-02,1.00\n");
        assertEquals(200, imported.status(), imported.raw());
        JsonNode ad = only("/api/v1.0/ads?adSourceIds=" + enc("\"ad-216\""));
        assertEquals("Spring Video", ad.get("name").asText(), ad.toString());
        processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"ad216@example.com\","
                + "\"sourceLinkTag\":\"@probe-ad-set\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"set-216\",\"adspendAdId\":\"ad-216\","
                + "\"date\":\"2026-11-02T10:00:00Z\"}", "CREATE_CLICK");
        processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"ad216@example.com\",\"date\":\"2026-11-03T10:00:00Z\","
                + "\"items\":[{\"name\":\"Thing\",\"price\":10}]}", "CREATE_ORDER");
        JsonNode sale = only("/api/v1.0/sales?emails=" + enc("\"ad216@example.com\""));
        assertEquals("Spring Video", sale.path("lastSource").path("sourceLinkAd").path("name").asText(), sale.toString());
        awaitCdcCaughtUp();
        Response paths = get(key, "/api/v1.0/conversion-paths?conversionType=SALE&fromDate=2026-11-03&toDate=2026-11-03");
        assertEquals(200, paths.status(), paths.raw());
        JsonNode touch = null;
        for (JsonNode row : paths.body().get("result")) {
            for (JsonNode t : row.get("path")) {
                if ("@probe-ad-set".equals(t.path("tag").asText())) {
                    touch = t;
                }
            }
        }
        assertTrue(touch != null, paths.raw());
        assertEquals("ad-216", touch.path("sourceLinkAd").path("adSourceId").asText(), touch.toString());
        assertEquals("Spring Video", touch.path("sourceLinkAd").path("name").asText(), touch.toString());
    }

    // ---- 001 §4.0 Enforcing endpoints ----

    /**
     * 001 §4.0 (issue 22 item 13): POST /reports/generate and GET /reports/poll/{externalId} are enforcing endpoints:
     * an unknown query parameter is {@code 400 Unknown parameter: <name>}, a repeated one {@code Duplicate parameter}.
     */
    @Test
    void s001_4_0_reportsGenerateAndPollRefuseUnknownParameters() {
        String body = "{\"configuration\":{\"attributionModel\":\"last_click\",\"startDate\":\"2026-11-01\","
                + "\"endDate\":\"2026-11-02\",\"level\":\"facebook_ad\",\"fields\":[\"revenue\"],\"ids\":[\"a1\"]}}";
        assertBadRequest(post(key, "/api/v1.0/reports/generate?bogus=1", body), "Unknown parameter: bogus");
        Response generated = post(key, "/api/v1.0/reports/generate", body);
        assertEquals(200, generated.status(), generated.raw());
        String externalId = generated.body().get("result").get("externalId").asText();
        assertBadRequest(get(key, "/api/v1.0/reports/poll/" + externalId + "?bogus=1"), "Unknown parameter: bogus");
        assertBadRequest(get(key, "/api/v1.0/reports/poll/" + externalId + "?format=json&format=csv"), "Duplicate parameter: format");
        assertEquals(200, get(key, "/api/v1.0/reports/poll/" + externalId + "?format=json").status());
    }

    // ---- 001 §4.0 List parameters ----

    /**
     * 001 §4.0 list parameters (issue 22 item 21; the spec is silent, docs/clients.md "Empty list parameters"): a list
     * sent with no value is 400 {@code Empty list parameter: <name>} on every endpoint, never "no filter" (which
     * returned every lead of the account to a client that built {@code ids} from an empty selection).
     */
    @Test
    void s001_4_0_aBlankListFilterIsRefused() {
        processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"blank40@example.com\"}", "CREATE_LEAD");
        assertBadRequest(get(key, "/api/v1.0/leads?ids=" + enc("\"\"")), "Empty list parameter: ids");
        assertBadRequest(get(key, "/api/v1.0/leads?ids="), "Empty list parameter: ids");
        assertBadRequest(get(key, "/api/v1.0/leads?emails=" + enc("\"\",\"\"")), "Empty list parameter: emails");
        assertBadRequest(get(key, "/api/v1.0/sales?ids=" + enc("\"\"")), "Empty list parameter: ids");
        assertBadRequest(get(key, "/api/v1.0/leads/aggregation?attribute=TAG&tags=" + enc("\"\"")), "Empty list parameter: tags");
        assertEquals(1, get(key, "/api/v1.0/leads?emails=" + enc("\"blank40@example.com\"")).body().get("result").size());
    }

    /**
     * 001 §4.0 list encoding (issue 22 item 14): a list whose double quotes do not pair up is a 400 at once, on reads
     * and on writes, never an accepted write that FAILs later ("Sale not found").
     */
    @Test
    void s001_4_0_aListWithAnUnpairedQuoteIsRefused() {
        assertBadRequest(put(key, "/api/v1.0/sales?ids=" + enc("\"abc") + "&isRefunded=true", null),
                "Malformed list parameter: ids (unpaired double quote)");
        assertBadRequest(get(key, "/api/v1.0/leads?emails=" + enc("\"a@b.c\",\"d@e.f")), "Malformed list parameter: emails (unpaired double quote)");
        assertEquals(200, get(key, "/api/v1.0/leads?emails=" + enc("\"a@b.c\",\"d@e.f\"")).status());
    }

    // ---- 001 §4.2 PUT /sales ----

    /**
     * 001 §4.2 PUT /sales (issue 22 item 9): a {@code refundedAmount} larger than the sale is refused like DELETE
     * /orders/{id} refuses one larger than the order (the write FAILS with the rule's message, nothing is refunded);
     * an amount within the sale is recorded.
     */
    @Test
    void s001_4_2_putSalesRefusesARefundAboveTheSale() {
        processed(key, "POST", "/api/v1.0/orders", "{\"email\":\"refund42@example.com\",\"orderId\":\"refund-42\","
                + "\"items\":[{\"name\":\"Thing\",\"price\":10},{\"name\":\"Other\",\"price\":20}]}", "CREATE_ORDER");
        String path = "/api/v1.0/sales?emails=" + enc("\"refund42@example.com\"");
        JsonNode sales = get(key, path).body().get("result");
        String id = sales.get(0).get("price").get("price").decimalValue().intValue() == 10 ? sales.get(0).get("id").asText() : sales.get(1).get("id").asText();
        JsonNode tooMuch = write(key, "PUT", "/api/v1.0/sales?ids=" + enc("\"" + id + "\"") + "&isRefunded=true&refundedAmount=1000.00", null);
        assertEquals("FAILED", tooMuch.get("status").asText(), tooMuch.toString());
        assertEquals("refundedAmount cannot exceed the sale total", tooMuch.get("errorMessage").asText());
        JsonNode aboveSaleBelowOrder = write(key, "PUT", "/api/v1.0/sales?ids=" + enc("\"" + id + "\"") + "&isRefunded=true&refundedAmount=10.01", null);
        assertEquals("FAILED", aboveSaleBelowOrder.get("status").asText(), aboveSaleBelowOrder.toString());
        assertEquals("refundedAmount cannot exceed the sale total", aboveSaleBelowOrder.get("errorMessage").asText());
        for (JsonNode sale : get(key, path).body().get("result")) {
            assertFalse(sale.has("refundDate"), "nothing refunded: " + sale);
            assertEquals(0, sale.get("price").get("refunded").decimalValue().signum(), sale.toString());
        }
        JsonNode part = write(key, "PUT", "/api/v1.0/sales?ids=" + enc("\"" + id + "\"") + "&isRefunded=true&refundedAmount=4.00", null);
        assertEquals("PROCESSED", part.get("status").asText(), part.toString());
        JsonNode refunded = only("/api/v1.0/sales?ids=" + enc("\"" + id + "\""));
        assertEquals(0, new java.math.BigDecimal("4.00").compareTo(refunded.get("price").get("refunded").decimalValue()), refunded.toString());
    }

    // ---- 001 §4.9 URL rules ----

    /**
     * 001 §4.9 / §3.2 (issue 22 item 7): a lead-stage URL rule's stage is "created if absent" as an account stage:
     * GET /stages lists it at once and reports accept it as lead_stage, before any lead entered it.
     */
    @Test
    void s001_4_9_aLeadStageUrlRuleCreatesTheAccountStage() {
        String own = newUnthrottledAccount("UTC", dev.attribution.api.auth.Roles.ALL);
        assertBadRequest(get(own, "/api/v1.0/attribution?attributionModel=last_click&level=facebook_ad&ids=" + list("x")
                + "&fields=sales&startDate=2026-10-01&endDate=2026-10-02&lead_stage=" + enc("Demo Booked")),
                "Invalid lead_stage: Demo Booked. The account has no lead stages");
        Response rule = post(own, "/api/v1.0/url-rules", """
                {"name":"booked","tag":"Demo Booked","wordsToMatch":["booked"],"sourceRuleTypes":["REFERRER_URL"],"createLeadStage":true}""");
        assertEquals(200, rule.status(), rule.raw());
        JsonNode stages = get(own, "/api/v1.0/stages").body().get("result");
        assertEquals(1, stages.size(), stages.toString());
        assertEquals("Demo Booked", stages.get(0).get("name").asText(), stages.toString());
        Response report = get(own, "/api/v1.0/attribution?attributionModel=last_click&level=facebook_ad&ids=" + list("x")
                + "&fields=sales&startDate=2026-10-01&endDate=2026-10-02&lead_stage=" + enc("Demo Booked"));
        assertEquals(200, report.status(), report.raw());
    }

    // ---- 002 §7.2 Validation rules that give 400 ----

    /**
     * 002 §7.2 (issue 22 item 10): a {@code leadIps} entry or a click {@code ip} that is not an IP address is 400
     * {@code Invalid <field> '<value>': not an IP address} (was stored as an IP); IPv4 and IPv6 literals pass.
     */
    @Test
    void s002_7_2_ipFieldsMustHoldIpAddresses() {
        assertBadRequest(post(key, "/api/v1.0/leads", "{\"email\":\"ip72@example.com\",\"leadIps\":[\"not-an-ip\"]}"),
                "Invalid leadIps 'not-an-ip': not an IP address");
        assertBadRequest(post(key, "/api/v1.0/orders", "{\"email\":\"ip72@example.com\",\"leadIps\":[\"1.2.3.4\",\"256.1.1.1\"],"
                + "\"items\":[{\"name\":\"Thing\",\"price\":10}]}"), "Invalid leadIps '256.1.1.1': not an IP address");
        assertBadRequest(post(key, "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"ip72@example.com\","
                + "\"ip\":\"not-an-ip' OR 1=1\"}"), "Invalid ip 'not-an-ip' OR 1=1': not an IP address");
        JsonNode lead = processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"ip72@example.com\",\"leadIps\":[\"203.0.113.7\",\"2001:db8::1\"]}",
                "CREATE_LEAD");
        assertEquals(2, lead.get("ips").size(), lead.toString());
    }

    /**
     * 002 §7.2 (issue 22 item 10): text the database would silently change is refused with 400 — an unpaired
     * surrogate (was stored as {@code ?}) and invalid UTF-8 (was stored as U+FFFD), in any string field.
     */
    @Test
    void s002_7_2_unpairedSurrogatesAndInvalidUtf8AreRefused() throws Exception {
        assertBadRequest(post(key, "/api/v1.0/leads", "{\"email\":\"sur72@example.com\",\"firstName\":\"A\\ud800B\"}"),
                "The request contains an invalid character (unpaired surrogate)");
        assertBadRequest(post(key, "/api/v1.0/orders", "{\"email\":\"sur72@example.com\",\"items\":[{\"name\":\"\\udc00\",\"price\":10}]}"),
                "The request contains an invalid character (unpaired surrogate)");
        byte[] prefix = "{\"email\":\"".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] suffix = "@example.com\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] body = new byte[prefix.length + 2 + suffix.length];
        System.arraycopy(prefix, 0, body, 0, prefix.length);
        body[prefix.length] = (byte) 0xC3;     // a lead byte without its continuation
        body[prefix.length + 1] = (byte) 0xFF; // never valid in UTF-8
        System.arraycopy(suffix, 0, body, prefix.length + 2, suffix.length);
        java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(server.getURL() + "/api/v1.0/leads"))
                .header("API-Key", key).header("Content-Type", "application/json")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body)).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(400, r.statusCode(), r.body());
        assertEquals("The request contains invalid UTF-8",
                dev.attribution.api.JsonBody.mapper().readTree(r.body()).get("message").get(0).asText(), r.body());
        // a valid pair (an emoji) is text like any other
        assertEquals(200, post(key, "/api/v1.0/leads", "{\"email\":\"sur72@example.com\",\"firstName\":\"A\\ud83d\\ude00\"}").status());
    }
}
