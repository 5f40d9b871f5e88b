package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.server.compat.N8nClient.Answer;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every request the npm package {@code n8n-nodes-hyros} 3.0.0 can send, replayed as it sends it ({@link N8nClient}:
 * raw query strings, blank strings for optional fields left empty, {@code pageSize=250} paging, the
 * {@code Accessible-Account-Id} header), and the fields it reads from the answers. Writes are followed to
 * {@code PROCESSED} through {@code GET /requests/{id}} (itself a client operation) and read back. The table of these
 * requests is docs/clients.md.
 */
@MicronautTest(transactional = false)
class N8nHyrosClientTest extends ApiTest {

    /** The demo account's last day: its reports and lists have data, nothing is in the future. */
    static final String END = "2026-10-31";

    /** A client on an account of its own (every role, generous limits). */
    N8nClient n8n;
    String accountId;
    /** A client on the demo-seeded account: hundreds of leads, sales, clicks, ads, ad accounts. */
    N8nClient demo;
    JsonNode seeded;

    @BeforeAll
    void setUp() throws Exception {
        accountId = account();
        n8n = new N8nClient(server.getURL().toString(), key(accountId), null);
        TestStack.get().properties().forEach(System::setProperty); // the admin command builds its own context
        seeded = admin("demo", "seed", "--leads", "300", "--months", "2", "--seed", "11", "--end-date", END);
        directory.setRateOverride(seeded.get("accountId").asText(), 100_000, 1_000_000);
        demo = new N8nClient(server.getURL().toString(), seeded.get("apiKey").asText(), null);
    }

    @AfterAll
    void clear() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new java.util.HashMap<>(super.getProperties());
        p.put("attribution.webhooks.allow-loopback", "true"); // as in every webhook test
        return p;
    }

    private String account() {
        String id = RequestIds.next("acc_");
        directory.createAccount(id, "n8n " + id, null, ZoneId.of("America/New_York"), "USD");
        directory.setRateOverride(id, 100_000, 1_000_000);
        return id;
    }

    private String key(String account) {
        String key = ApiKeys.newKey();
        directory.createKey(account, ApiKeys.hash(key), Roles.ALL, false);
        return key;
    }

    /** A query object in the order the node fills it. */
    static Map<String, Object> q(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static void ok(Answer a) {
        assertEquals(200, a.status(), a.toString());
    }

    /** A write the client sends: 200, {@code {request_id, result:'OK'}}; then polled to PROCESSED; returns the status. */
    JsonNode applied(N8nClient client, Answer a, String eventType) {
        ok(a);
        assertEquals("OK", a.body().get("result").asText(), a.toString());
        String requestId = a.body().get("request_id").asText();
        JsonNode status = await(() -> {
            Answer s = client.get("/requests/" + requestId, null); // the node's Request Status operation
            assertEquals(200, s.status(), s.toString());
            JsonNode r = s.result();
            return "PENDING".equals(r.path("status").asText()) ? null : r;
        });
        assertEquals("PROCESSED", status.path("status").asText(), a + " => " + status);
        assertEquals(eventType, status.path("eventType").asText());
        return status;
    }

    /** A write of any event type (deletes): accepted, then PROCESSED. */
    JsonNode processed(N8nClient client, Answer a) {
        ok(a);
        String requestId = a.body().get("request_id").asText();
        JsonNode status = await(() -> {
            JsonNode r = client.get("/requests/" + requestId, null).result();
            return "PENDING".equals(r.path("status").asText()) ? null : r;
        });
        assertEquals("PROCESSED", status.path("status").asText(), a + " => " + status);
        return status;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    // ---------------------------------------------------------------- leads

    @Test
    void leadCreateUpdateGetJourneyAndDelete() {
        // Create: email, then the comma-split array fields, then the additional fields as entered (blank ones too)
        JsonNode created = applied(n8n, n8n.request("POST", "/leads", """
                {"email":"ada+n8n@example.com","phoneNumbers":["+15550001111"],"leadIps":["10.1.1.1"],
                 "tags":["!webinar","@n8n-facebook"],"firstName":"Ada","lastName":"Lovelace","stage":"",
                 "adOptimizationConsent":"GRANTED"}""", null), "CREATE_LEAD").get("result");
        String leadId = created.get("id").asText();
        assertEquals("ada+n8n@example.com", created.get("email").asText());

        // the same lead again with the options added but left empty: blank names are no value, not a new value
        // (phoneNumbers sent again: on POST, omitting it deletes the stored numbers, spec 4.1)
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"ada+n8n@example.com","phoneNumbers":["+15550001111"],"firstName":"","lastName":"","stage":"",
                 "adOptimizationConsent":"GRANTED"}""",
                null), "CREATE_LEAD");
        JsonNode lead = n8n.get("/leads", q("emails", "\"ada+n8n@example.com\"", "pageSize", 50)).result().get(0);
        assertEquals("Ada", lead.get("firstName").asText(), lead.toString());
        assertEquals("Lovelace", lead.get("lastName").asText(), lead.toString());

        // Update by email: PUT with body and query goes through fetch with a hand-built, unencoded query string
        JsonNode updated = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!n8n-upsell"],"removeTags":["!webinar"],"leadStage":{"name":"Qualified","date":"2026-11-20T10:00:00"},
                 "email":"","firstName":"Augusta"}""", q("email", "ada+n8n@example.com")), "UPDATE_LEAD").get("result");
        assertEquals(leadId, updated.get("id").asText(), updated.toString());
        assertTrue(texts(updated.get("tags")).contains("!n8n-upsell"), updated.toString());
        assertFalse(texts(updated.get("tags")).contains("!webinar"), updated.toString());
        assertEquals("Augusta", updated.get("firstName").asText());

        // Update by phone, the number as typed (raw '+'); the old Stage field is mapped to leadStage by the node
        JsonNode byPhone = applied(n8n, n8n.request("PUT", "/leads", """
                {"leadStage":{"name":"Customer"},"removeLeadStages":["Qualified"]}""", q("phone", "+15550001111")),
                "UPDATE_LEAD").get("result");
        assertEquals(leadId, byPhone.get("id").asText());
        assertEquals("Customer", byPhone.get("currentStage").get("name").asText());

        // Update by id, with a space typed in front of it (fetch encodes it as %20)
        applied(n8n, n8n.request("PUT", "/leads", """
                {"lastName":"King"}""", q("id", " " + leadId)), "UPDATE_LEAD");

        // Get many: every filter the node has, quoted lists, n8n's qs encoding
        Answer many = n8n.get("/leads", q("emails", "\"ada+n8n@example.com\"", "ids", "\"" + leadId + "\"",
                "tags", "\"!n8n-upsell\"", "tagFromDate", "2026-11-01T00:00:00", "tagToDate", "2026-11-30T23:59:59",
                "phones", "\"+15550001111\"", "stage", "\"Customer\"", "fromDate", "2026-11-01T00:00:00",
                "toDate", "2026-11-30T00:00:00", "updatedFromDate", "2026-11-01T00:00:00", "updatedToDate", "2026-11-30T00:00:00",
                "pageSize", 50));
        ok(many);
        assertEquals(1, many.result().size(), many.toString());
        assertEquals("King", many.result().get(0).get("lastName").asText());
        assertTrue(many.body().has("request_id"));

        // Get journey: ids and emails unquoted, includeEvents=true
        Answer journey = n8n.get("/leads/journey", q("ids", leadId, "emails", "ada+n8n@example.com", "includeEvents", true));
        ok(journey);
        assertEquals(leadId, journey.result().get(0).get("lead").get("id").asText(), journey.toString());
        assertTrue(journey.result().get(0).has("journey"));

        // Delete by email (n8n's qs encodes the '+' and '@')
        applied(n8n, n8n.request("DELETE", "/leads", null, q("email", "ada+n8n@example.com")), "DELETE_LEAD");
        Answer gone = n8n.get("/leads", q("ids", "\"" + leadId + "\"", "pageSize", 50));
        ok(gone);
        assertEquals(0, gone.result().size(), gone.toString());
    }

    @Test
    void leadUpdateByEmailKeepsWhatTheUserTyped() {
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"grace.hopper+ops@example.com","tags":["!imported"]}""", null), "CREATE_LEAD");
        // a trailing space typed after the address reaches the server as %20
        JsonNode r = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!n8n-updated"]}""", q("email", "grace.hopper+ops@example.com ")), "UPDATE_LEAD").get("result");
        assertEquals("grace.hopper+ops@example.com", r.get("email").asText());
        assertTrue(texts(r.get("tags")).contains("!n8n-updated"), r.toString());
    }

    @Test
    void leadUpdateQueryCharactersFetchLeavesAlone() {
        applied(n8n, n8n.request("POST", "/leads", """
                {"email":"o'brien+x@example.com"}""", null), "CREATE_LEAD");
        // fetch percent-encodes the apostrophe; '+' and '@' stay raw
        JsonNode r = applied(n8n, n8n.request("PUT", "/leads", """
                {"tags":["!quoted"]}""", q("email", "o'brien+x@example.com")), "UPDATE_LEAD").get("result");
        assertTrue(texts(r.get("tags")).contains("!quoted"), r.toString());
        // characters a URI may not hold, and a '%' that starts no escape, which fetch sends as typed: taken literally
        for (String email : List.of("100%off@example.com", "o|brien{x}@example.com", "caret^tick`@example.com")) {
            applied(n8n, n8n.request("POST", "/leads", "{\"email\":\"" + email + "\"}", null), "CREATE_LEAD");
            JsonNode lead = applied(n8n, n8n.request("PUT", "/leads", """
                    {"tags":["!literal"]}""", q("email", email)), "UPDATE_LEAD").get("result");
            assertEquals(email, lead.get("email").asText());
            assertTrue(texts(lead.get("tags")).contains("!literal"), lead.toString());
        }
    }

    @Test
    void leadReturnAllPagesWith250() {
        List<JsonNode> leads = demo.all("/leads", q());
        assertEquals(seeded.get("leads").asInt(), leads.size());
        Set<String> ids = new HashSet<>();
        leads.forEach(l -> ids.add(l.get("id").asText()));
        assertEquals(leads.size(), ids.size(), "no lead twice across pages");
        assertEquals(seeded.get("sales").asInt(), demo.all("/sales", q("isRecurringSale", "ALL", "saleRefundedState", "ALL")).size());
    }

    @Test
    void agencyActsOnItsClientWithTheHeaderOnEveryRequest() {
        String agency = account();
        directory.link(agency, accountId, "APPROVED");
        N8nClient asAgency = new N8nClient(server.getURL().toString(), key(agency), " " + accountId + " ");
        applied(asAgency, asAgency.request("POST", "/leads", """
                {"email":"agency+lead@example.com","tags":["!from-agency"]}""", null), "CREATE_LEAD");
        applied(asAgency, asAgency.request("PUT", "/leads", """
                {"tags":["!agency-updated"]}""", q("email", "agency+lead@example.com")), "UPDATE_LEAD");
        JsonNode lead = n8n.get("/leads", q("emails", "\"agency+lead@example.com\"", "pageSize", 50)).result().get(0);
        assertTrue(texts(lead.get("tags")).contains("!agency-updated"), lead.toString());
    }

    // ---------------------------------------------------------------- orders and sales

    @Test
    void orderCreateUpdateRefundAndSales() {
        String item = """
                {"categoryName":"","costOfGoods":0,"externalId":"","isRebill":false,"itemDiscount":0,"name":"N8n Course",
                 "packages":"","price":99.5,"quantity":1,"sku":"","tag":"","taxes":0}""";
        applied(n8n, n8n.request("POST", "/orders", """
                {"email":"buyer+n8n@example.com","items":[%s],"leadIps":["10.2.2.2"],"phoneNumbers":["+15550002222"],
                 "orderId":"n8n-order-1","date":"","currency":"","cartId":"","externalSubscriptionId":"","firstName":"",
                 "lastName":"","parentEmail":"","stage":"","priceFormat":"DECIMAL","hardCost":0,"shippingCost":0,"taxes":0,
                 "orderDiscount":0}""".formatted(item), null), "CREATE_ORDER");

        // Update: items replaced; the update fields as entered, integrationType left blank
        JsonNode updated = applied(n8n, n8n.request("PUT", "/orders/n8n-order-1", """
                {"items":[%s],"integrationType":"","stage":"","cartId":"","currency":"","externalSubscriptionId":"",
                 "hardCost":1.5,"shippingCost":0,"taxes":0,"orderDiscount":0,"priceFormat":"DECIMAL"}"""
                .formatted(item.replace("99.5", "120")), null), "UPDATE_ORDER").get("result");
        assertEquals(1, updated.size(), updated.toString());

        // Sales, get many: quoted lists and the two ALL enums
        Answer sales = n8n.get("/sales", q("emails", "\"buyer+n8n@example.com\"", "isRecurringSale", "ALL",
                "saleRefundedState", "ALL", "fromDate", "2026-11-01T00:00:00", "pageSize", 50));
        ok(sales);
        assertEquals(1, sales.result().size(), sales.toString());
        String saleId = sales.result().get(0).get("id").asText();
        assertEquals(0, new java.math.BigDecimal("120").compareTo(sales.result().get(0).get("price").get("price").decimalValue()));

        // Sales update: PUT without a body, so n8n's qs; ids as the user typed them (not quoted)
        applied(n8n, n8n.request("PUT", "/sales", null, q("ids", saleId, "isRecurringSale", false, "isRefunded", true,
                "refundedDate", "2026-11-21T09:30:00", "refundedAmount", 20)), "UPDATE_SALE");
        JsonNode refunded = n8n.get("/sales", q("ids", "\"" + saleId + "\"", "saleRefundedState", "REFUNDED", "pageSize", 50)).result();
        assertEquals(1, refunded.size(), refunded.toString());

        // the Update Fields added with their defaults: isRefunded=false, refundedAmount=0
        applied(n8n, n8n.request("PUT", "/sales", null, q("ids", saleId, "isRecurringSale", true, "isRefunded", false,
                "refundedAmount", 0)), "UPDATE_SALE");

        // Order refund: DELETE with refundedAmount
        applied(n8n, n8n.request("DELETE", "/orders/n8n-order-1", null, q("refundedAmount", 120)), "REFUND_ORDER");

        // Sale delete
        processed(n8n, n8n.request("DELETE", "/sales/" + saleId, null, null));
        assertEquals(0, n8n.get("/sales", q("ids", "\"" + saleId + "\"", "pageSize", 50)).result().size());
    }

    // ---------------------------------------------------------------- calls

    @Test
    void callCreateGetUpdateDelete() {
        String extra = """
                "date":"","externalId":"","firstName":"","id":"","lastName":"","qualification":"","stage":\"\"""";
        String first = applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Discovery call","email":"caller+n8n@example.com","phoneNumbers":["+15550003333"],"leadIps":["10.3.3.3"],
                 %s,"qualified":true,"state":"QUALIFIED"}""".formatted(extra), null), "CREATE_CALL").get("result").get("id").asText();
        // a second call with the same blank externalId is a second call, not an update of the first
        String second = applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Follow-up call","email":"caller+n8n@example.com",%s,"state":"NO_SHOW"}""".formatted(extra), null),
                "CREATE_CALL").get("result").get("id").asText();
        assertFalse(first.equals(second), "two calls");

        Answer calls = n8n.get("/calls", q("emails", "\"caller+n8n@example.com\"", "fromDate", "2026-11-01T00:00:00",
                "pageSize", 50, "qualified", true));
        ok(calls);
        assertEquals(1, calls.result().size(), calls.toString());
        // the node's own Page Size filter has no maximum; the API's is 250 (spec 8.2)
        Answer tooBig = n8n.get("/calls", q("emails", "\"caller+n8n@example.com\"", "pageSize", 500));
        assertEquals(400, tooBig.status(), tooBig.toString());
        List<JsonNode> all = n8n.all("/calls", q("emails", "\"caller+n8n@example.com\""));
        assertEquals(2, all.size());

        // Update: PUT without a body, so n8n's qs
        applied(n8n, n8n.request("PUT", "/calls", null, q("ids", first, "name", "Discovery call", "qualification", "Hot lead",
                "state", "UNQUALIFIED")), "UPDATE_CALL");
        JsonNode call = n8n.get("/calls", q("ids", "\"" + first + "\"", "pageSize", 50)).result().get(0);
        assertEquals("UNQUALIFIED", call.get("state").asText(), call.toString());

        processed(n8n, n8n.request("DELETE", "/calls/" + first, null, null));
        assertEquals(0, n8n.get("/calls", q("ids", "\"" + first + "\"", "pageSize", 50)).result().size());
    }

    // ---------------------------------------------------------------- products, tags, stages

    @Test
    void productCreateGetUpdateDelete() {
        JsonNode product = applied(n8n, n8n.request("POST", "/products", """
                {"name":"N8n Workshop","price":49,"category":"","packages":""}""", null), "CREATE_PRODUCT").get("result");
        String id = product.get("id").asText();
        List<JsonNode> found = n8n.all("/products", q("name", "N8n Workshop"));
        assertEquals(1, found.size(), found.toString());
        Answer page = n8n.get("/products", q("isRecurringSale", "NON_RECURRING", "pageSize", 50));
        ok(page);

        Answer put = n8n.request("PUT", "/products/" + id, """
                {"name":"N8n Workshop Pro","price":59,"customCost":5,"isRecurringSale":false,"category":"","sku":""}""", null);
        ok(put);
        await(() -> {
            JsonNode p = n8n.get("/products", q("name", "N8n Workshop Pro", "pageSize", 50)).result();
            return p.size() == 1 ? p : null;
        });
        processed(n8n, n8n.request("DELETE", "/products/" + id, null, null));
        assertEquals(0, n8n.get("/products", q("name", "N8n Workshop Pro", "pageSize", 50)).result().size());
    }

    @Test
    void tagsAndStages() {
        Answer tags = demo.get("/tags", null);
        ok(tags);
        assertTrue(tags.result().isArray() && tags.result().size() > 0, tags.toString());
        List<JsonNode> counts = demo.all("/tags/count", q());
        assertFalse(counts.isEmpty());
        ok(demo.get("/tags/count", q("name", tags.result().get(0).asText(), "pageSize", 50)));
        List<JsonNode> stages = demo.all("/stages", q());
        assertNotNull(stages);
        ok(demo.get("/stages", q("stageFromDate", "2026-09-01T00:00:00", "stageToDate", "2026-10-31T00:00:00", "pageSize", 50)));
    }

    // ---------------------------------------------------------------- sources, ads, ad accounts, keywords, custom costs

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

    // ---------------------------------------------------------------- clicks, carts, subscriptions

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
    void cartCreateUpdateGet() {
        String item = """
                {"externalId":"","isRebill":false,"name":"Cart Item","price":19.99,"quantity":1,"sku":""}""";
        JsonNode cart = applied(n8n, n8n.request("POST", "/carts", """
                {"items":[%s],"leadIps":["10.5.5.5"],"phoneNumbers":["+15550005555"],"cartId":"n8n-cart-1","currency":"",
                 "date":"","email":"cart+n8n@example.com","firstName":"","lastName":"","priceFormat":"DECIMAL"}""".formatted(item),
                null), "CREATE_CART").get("result");
        assertNotNull(cart);
        applied(n8n, n8n.request("PUT", "/carts", """
                {"cartId":"n8n-cart-1","items":[%s,%s],"currency":"","email":"cart+n8n@example.com","date":""}"""
                .formatted(item, item.replace("Cart Item", "Second Item")), null), "UPDATE_CART");
        List<JsonNode> carts = n8n.all("/carts", q("emails", "cart+n8n@example.com", "purchased", false));
        assertEquals(1, carts.size(), carts.toString());
        assertEquals(2, carts.get(0).get("products").size(), carts.toString());
    }

    @Test
    void subscriptionCreateGetUpdate() {
        JsonNode sub = applied(n8n, n8n.request("POST", "/subscriptions", """
                {"status":"ACTIVE","startDate":"2026-11-01T00:00:00","price":29,"periodicity":"MONTH",
                 "phoneNumbers":["+15550006666"],"cancelAtDate":"","email":"sub+n8n@example.com","endDate":"","firstName":"",
                 "lastName":"","name":"","parentEmail":"","planId":"","stage":"","subscriptionId":"n8n-sub-1",
                 "trialEndDate":"","trialStartDate":""}""", null), "CREATE_SUBSCRIPTION").get("result");
        String id = sub.get("id").asText();
        Answer found = n8n.get("/subscriptions", q("emails", "\"sub+n8n@example.com\"", "subscriptionStates", "ACTIVE,TRIALING",
                "pageSize", 50));
        ok(found);
        assertEquals(1, found.result().size(), found.toString());
        assertEquals(1, n8n.all("/subscriptions", q("ids", "\"" + id + "\"")).size());

        applied(n8n, n8n.request("PUT", "/subscriptions", """
                {"ids":["%s"],"price":39,"name":"Pro plan","status":"CANCELED","cancelAtDate":"2026-11-30T00:00:00"}""".formatted(id),
                null), "UPDATE_SUBSCRIPTION");
        JsonNode after = n8n.get("/subscriptions", q("ids", "\"" + id + "\"", "pageSize", 50)).result().get(0);
        assertEquals("CANCELED", after.get("status").asText(), after.toString());
        assertEquals(0, new java.math.BigDecimal("39").compareTo(after.get("price").decimalValue()));
    }

    // ---------------------------------------------------------------- account surfaces, webhooks, URL rules

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

    // ---------------------------------------------------------------- more of what users type

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

    @Test
    void datesAsN8nExpressionsPrintThem() {
        // {{ $now }} and {{ $json.createdAt }} reach the API as ISO strings with milliseconds and an offset
        String now = "2026-11-20T09:15:42.123-05:00";
        applied(n8n, n8n.request("POST", "/orders", """
                {"email":"dated+n8n@example.com","items":[{"name":"Dated Item","price":10,"quantity":1}],"date":"%s"}"""
                .formatted(now), null), "CREATE_ORDER");
        applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Dated call","email":"dated+n8n@example.com","date":"%s"}""".formatted(now), null), "CREATE_CALL");
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/dated","email":"dated+n8n@example.com","date":"%s"}""".formatted(now), null),
                "CREATE_CLICK");
        Answer sales = n8n.get("/sales", q("emails", "\"dated+n8n@example.com\"", "fromDate", "2026-11-20T00:00:00.000-05:00",
                "toDate", "2026-11-20T23:59:59.999-05:00", "pageSize", 50));
        ok(sales);
        assertEquals(1, sales.result().size(), sales.toString());
        // the date picker's own form, and a bare date
        ok(n8n.get("/calls", q("emails", "\"dated+n8n@example.com\"", "fromDate", "2026-11-20", "toDate", "2026-11-20T23:59:59",
                "pageSize", 50)));
    }

    @Test
    void tagsDateWithMillisecondsIsRefusedAsTheSpecSays() {
        Answer r = n8n.request("POST", "/leads", """
                {"email":"millis+n8n@example.com","tags":["!x"],"tagsDate":"2026-11-20T09:15:42.123-05:00"}""", null);
        assertEquals(400, r.status(), r.toString());
        assertEquals("Invalid date format.", r.body().get("message").get(0).asText());
    }

    @Test
    void phoneOnlyLeadAndTagsDate() {
        JsonNode lead = applied(n8n, n8n.request("POST", "/leads", """
                {"phoneNumbers":["+1 555 000 7777"],"tags":["!sms-optin"],"tagsDate":"2026-11-19T08:00:00"}""", null),
                "CREATE_LEAD").get("result");
        assertTrue(lead.get("email").asText().startsWith("15550007777@"), lead.toString());
        JsonNode updated = applied(n8n, n8n.request("PUT", "/leads", """
                {"email":"sms+lead@example.com","tags":["!sms-confirmed"]}""", q("phone", "+1 555 000 7777")), "UPDATE_LEAD")
                .get("result");
        assertEquals("sms+lead@example.com", updated.get("email").asText(), updated.toString());
        ok(n8n.get("/leads", q("phones", "\"+1 555 000 7777\"", "pageSize", 50)));
        assertEquals(1, n8n.get("/leads", q("phones", "\"+1 555 000 7777\"", "pageSize", 50)).result().size());
    }

    @Test
    void callUpdateByIdListsAndExternalIds() {
        String a = applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Call A","email":"calls+list@example.com","externalId":"ext-a"}""", null), "CREATE_CALL").get("result").get("id").asText();
        String b = applied(n8n, n8n.request("POST", "/calls", """
                {"name":"Call B","email":"calls+list@example.com","externalId":"ext-b"}""", null), "CREATE_CALL").get("result").get("id").asText();
        JsonNode both = applied(n8n, n8n.request("PUT", "/calls", null, q("ids", a + ", " + b, "name", "Call AB", "state", "CANCELLED")),
                "UPDATE_CALL").get("result");
        assertEquals(2, both.size(), both.toString());
        applied(n8n, n8n.request("PUT", "/calls", null, q("externalIds", "ext-a,ext-b", "name", "Call AB", "qualified", false)),
                "UPDATE_CALL");
    }

    @Test
    void productUpdateWithTheOptionsAddedButEmpty() {
        String id = applied(n8n, n8n.request("POST", "/products", """
                {"name":"Blank Fields Product","price":10,"packages":["Bundle"]}""", null), "CREATE_PRODUCT").get("result").get("id").asText();
        ok(n8n.request("PUT", "/products/" + id, """
                {"name":"","tag":"","sku":"","category":"","price":12,"callProduct":false,"updateHistoricalSales":false,
                 "packages":[]}""", null));
        JsonNode p = await(() -> {
            JsonNode r = n8n.get("/products", q("name", "Blank Fields Product", "pageSize", 50)).result();
            return r.size() == 1 && r.get(0).get("price").decimalValue().intValue() == 12 ? r.get(0) : null;
        });
        assertEquals("Blank Fields Product", p.get("name").asText());
    }

    @Test
    void subscriptionsTheNodeCanSend() {
        JsonNode trial = applied(n8n, n8n.request("POST", "/subscriptions", """
                {"status":"TRIALING","startDate":"2026-11-10T00:00:00","price":0,"periodicity":"YEAR","email":"trial+n8n@example.com",
                 "trialStartDate":"2026-11-10T00:00:00","trialEndDate":"2026-11-24T00:00:00","planId":"plan-1","name":"Trial"}""",
                null), "CREATE_SUBSCRIPTION").get("result");
        String id = trial.get("id").asText();
        applied(n8n, n8n.request("PUT", "/subscriptions", """
                {"ids":["%s"],"status":"ACTIVE","startDate":"2026-11-24T00:00:00"}""".formatted(id), null), "UPDATE_SUBSCRIPTION");
        ok(n8n.get("/subscriptions", q("productTags", "\"$trial\"", "subscriptionStates", "ACTIVE", "pageSize", 50)));
    }

    @Test
    void clickWithAnAdPlatform() {
        applied(n8n, n8n.request("POST", "/clicks", """
                {"referrerUrl":"https://shop.example.com/?fbclid=abc","integrationType":"FACEBOOK","adSourceId":"120000000001",
                 "adspendAdId":"","adSourceClickId":"abc","email":"fb+click@example.com","isOrganic":false,"sourceLinkTag":""}""",
                null), "CREATE_CLICK");
    }

    @Test
    void trackingScriptWithEveryOption() {
        ok(n8n.get("/tracking-script", q("spa", true, "ignorePrevUrl", true, "embed", true, "deleteTrackingScriptParams", false)));
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

    // ---------------------------------------------------------------- demo seeding

    private static synchronized JsonNode admin(String... args) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            exit = AdminCli.run(args);
        } finally {
            System.setOut(out);
        }
        String printed = o.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, printed);
        return JsonBody.mapper().readTree(printed.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
    }
}
