package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.WriteRequestLog;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.ZoneId;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 25: writes accepted by the version before command records, still PENDING in {@code write_requests} when the
 * server is upgraded, are applied by the new handlers. Each payload below is what the previous version's Writes class
 * stored for that event type (the shape written by hand, as the old code built it), inserted as the old node did.
 */
@MicronautTest(transactional = false)
class PendingPayloadUpgradeTest extends ApiTest {

    String accountId;
    String key;

    @BeforeAll
    void account() {
        accountId = RequestIds.next("acc_");
        directory.createAccount(accountId, "Upgrade " + accountId, null, ZoneId.of("UTC"), "USD");
        key = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(key), Roles.ALL, false);
    }

    /** Inserts a request as the previous version accepted it; returns its status once applied. */
    JsonNode legacy(String eventType, String lane, String payload) throws Exception {
        String id = RequestIds.forWrite();
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO write_requests (id, account_id, event_type, lane, payload) VALUES (?, ?, ?, ?, ?::jsonb)")) {
            ps.setString(1, id);
            ps.setString(2, accountId);
            ps.setString(3, eventType);
            ps.setInt(4, WriteRequestLog.orderingKey(accountId, lane));
            ps.setString(5, payload);
            ps.executeUpdate();
        }
        JsonNode status = awaitRequest(key, id);
        assertEquals("PROCESSED", status.get("status").asText(), eventType + " " + payload + ": " + status);
        return status.get("result");
    }

    @Test
    void callsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_CALL", "legacy-call@example.com", """
                {"name":"Legacy call","email":"legacy-call@example.com","phoneNumbers":["+15550001111"],"firstName":"Ada",
                 "leadIps":["10.0.0.1"],"stage":"Booked","externalId":"leg-1","date":"2026-01-20T15:00:00Z",
                 "qualified":false,"qualification":"Warm","state":"NO_SHOW"}""");
        String id = created.get("id").asText();
        assertEquals("Legacy call", created.get("name").asText());
        assertEquals("NO_SHOW", created.get("state").asText());
        assertFalse(created.get("qualified").asBoolean());
        assertEquals("legacy-call@example.com", created.get("lead").get("email").asText());
        JsonNode updated = legacy("UPDATE_CALL", "call:leg-1", """
                {"ids":[],"externalIds":["leg-1"],"name":"Renamed","qualification":"Hot","state":"QUALIFIED"}""");
        assertEquals(id, updated.get(0).get("id").asText());
        assertEquals("Renamed", updated.get(0).get("name").asText());
        assertTrue(updated.get(0).get("qualified").asBoolean());
        assertEquals("Hot", updated.get(0).get("qualification").get("name").asText());
        legacy("DELETE_CALL", "call:" + id, "{\"id\":\"" + id + "\"}");
        assertEquals(0, get(key, "/api/v1.0/calls?ids=" + list(id)).body().get("result").size());
    }

    @Test
    void customCostsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        String id = RequestIds.next("cc_");
        JsonNode created = legacy("CREATE_CUSTOM_COST", "cost:" + id, """
                {"startDate":"2026-01-01T00:00","endDate":"2026-01-31T00:00","frequency":"DAILY","cost":12.5,
                 "tags":["@legacy-news"],"name":"Legacy design","id":"%s"}""".formatted(id));
        assertEquals(id, created.get("id").asText());
        assertEquals("Legacy design", created.get("name").asText());
        JsonNode updated = legacy("UPDATE_CUSTOM_COST", "cost:" + id, """
                {"startDate":"2026-02-01T00:00","endDate":"2026-02-01T00:00","frequency":"ONE_TIME","cost":99,
                 "tags":["@legacy-news","@other"],"id":"%s"}""".formatted(id));
        assertEquals("ONE_TIME", updated.get("frequency").asText());
        assertEquals(2, updated.get("tags").size(), updated.toString());
        legacy("DELETE_CUSTOM_COST", "cost:" + id, "{\"id\":\"" + id + "\"}");
    }

    @Test
    void productsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_PRODUCT", "product:$legacy-widget", """
                {"name":"Legacy widget","price":"49.50","category":"Books","packages":[]}""");
        String id = created.get("id").asText();
        assertEquals("$legacy-widget", created.get("tag").asText());
        assertEquals(0, new java.math.BigDecimal("49.50").compareTo(created.get("price").decimalValue()));
        JsonNode updated = legacy("UPDATE_PRODUCT", "product:" + id, """
                {"id":"%s","price":"44.50","sku":"LW-1","recurring":true,"updateHistoricalSales":false}""".formatted(id));
        assertEquals(0, new java.math.BigDecimal("44.50").compareTo(updated.get("price").decimalValue()));
        assertEquals("LW-1", updated.get("sku").asText());
        assertTrue(updated.get("recurring").asBoolean(), "the stored 'recurring' of earlier versions is isRecurringSale");
        legacy("DELETE_PRODUCT", "product:" + id, "{\"id\":\"" + id + "\"}");
    }

    @Test
    void clicksAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode connected = legacy("CREATE_CLICK", "legacy-click@example.com", """
                {"referrerUrl":"https://shop.example.com/legacy?utm_source=news","sessionId":"s-1","userAgent":"Legacy/1.0",
                 "ip":"10.0.0.9","sourceLinkTag":"@legacy-src","isOrganic":true,"email":"legacy-click@example.com",
                 "phones":["+15550002222"],"tag":"#legacy-click","date":"2026-01-20T15:00:00Z"}""");
        assertEquals("https://shop.example.com/legacy?utm_source=news", connected.get("trackedUrl").asText());
        assertEquals("legacy-click@example.com", connected.get("email").asText());
        assertEquals("10.0.0.9", connected.get("ip").asText());
        assertEquals("@legacy-src", connected.get("sourceLinkTag").asText());
        JsonNode grouped = legacy("CREATE_CLICK", "legacy-click-group@example.com", """
                {"referrerUrl":"https://shop.example.com/group","isOrganic":false,"email":"legacy-click-group@example.com","phones":[]}""");
        assertEquals("legacy-click-group@example.com", grouped.get("email").asText());
        JsonNode unassigned = legacy("CREATE_CLICK", "10.0.0.77", """
                {"referrerUrl":"https://shop.example.com/alone","isOrganic":false,"ip":"10.0.0.77","phones":[]}""");
        assertEquals("", unassigned.get("leadId").asText(), "unassigned: " + unassigned);
        assertEquals("10.0.0.77", unassigned.get("ip").asText());
    }

    @Test
    void sourcesAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_SOURCE_LINK", "source:Legacy source", """
                {"name":"Legacy source","category":"Email","goal":"","isOrganic":true,"integrationType":"FACEBOOK",
                 "adSourceId":"as-legacy","accountId":"act-legacy","campaignId":"cmp-legacy"}""");
        assertEquals("@legacy-source", created.get("tag").asText());
        assertEquals("Email", created.get("category").get("name").asText());
        assertTrue(created.get("organic").asBoolean());
        assertEquals("FACEBOOK", created.get("adSource").get("platform").asText());
        String id = sourceId("@legacy-source");
        JsonNode updated = legacy("UPDATE_SOURCE_LINK", "source:" + id, """
                {"id":"%s","tag":"@legacy-renamed","category":"","isOrganic":false}""".formatted(id));
        assertEquals("@legacy-renamed", updated.get("tag").asText());
        assertFalse(updated.get("organic").asBoolean());
        assertTrue(updated.path("category").isMissingNode() || updated.get("category").isNull(), updated.toString());
        legacy("DELETE_SOURCE_LINK", "source:" + id, "{\"id\":\"" + id + "\"}");
        assertEquals(0, sourceCount("@legacy-renamed"));
    }

    String sourceId(String tag) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id FROM source_links WHERE account_id = ? AND tag = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next(), tag);
                return rs.getString(1);
            }
        }
    }

    int sourceCount(String tag) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT count(*) FROM source_links WHERE account_id = ? AND tag = ? AND deleted_at IS NULL")) {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    @Test
    void cartsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_CART", "cart:leg-cart", """
                {"cartId":"leg-cart","email":"legacy-cart@example.com","phoneNumbers":[],"firstName":"Ada","leadIps":[],
                 "date":"2026-01-03T13:00:00Z","priceFormat":"DECIMAL","currency":"USD",
                 "items":[{"name":"Legacy shoes","price":"49.99","quantity":2,"sku":"SH-1","isRebill":false}]}""");
        assertEquals("leg-cart", created.get("id").asText());
        assertEquals(1, created.get("events").asInt());
        assertEquals("legacy-cart@example.com", created.get("lead").get("email").asText());
        assertEquals(0, new java.math.BigDecimal("49.99").compareTo(created.get("products").get(0).get("price").decimalValue()));
        JsonNode updated = legacy("UPDATE_CART", "cart:leg-cart", """
                {"cartId":"leg-cart","priceFormat":"DECIMAL","currency":"USD",
                 "items":[{"name":"Legacy boots","price":"10.50","quantity":1,"externalId":"b-1","isRebill":true}]}""");
        assertEquals(2, updated.get("events").asInt());
        assertEquals("Legacy boots", updated.get("products").get(0).get("name").asText());
        assertEquals("legacy-cart@example.com", updated.get("lead").get("email").asText(), "the lead is kept when none is named");
    }

    @Test
    void subscriptionsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_SUBSCRIPTION", "legacy-sub@example.com", """
                {"status":"ACTIVE","price":"19.99","periodicity":"MONTH","email":"legacy-sub@example.com","phoneNumbers":[],
                 "leadIps":[],"name":"Legacy plan","subscriptionId":"leg-sub","startDate":"2026-01-01T00:00:00Z"}""");
        String id = created.get("id").asText();
        assertEquals("MONTH", created.get("periodicity").asText());
        assertEquals("#legacy-plan", created.get("tag").asText());
        assertEquals(0, new java.math.BigDecimal("19.99").compareTo(created.get("price").decimalValue()));
        JsonNode again = legacy("CREATE_SUBSCRIPTION", "legacy-sub@example.com", """
                {"status":"PAST_DUE","price":"21.00","periodicity":"YEAR","email":"legacy-sub@example.com","phoneNumbers":[],
                 "leadIps":[],"subscriptionId":"leg-sub","startDate":"2026-01-01T00:00:00Z"}""");
        assertEquals(id, again.get("id").asText(), "the same subscriptionId updates the subscription");
        assertEquals("PAST_DUE", again.get("status").asText());
        assertEquals("YEAR", again.get("periodicity").asText());
        JsonNode updated = legacy("UPDATE_SUBSCRIPTION", "subscription:leg-sub", """
                {"ids":["leg-sub"],"status":"CANCELED","price":"24.99","cancelAtDate":"2026-02-01T00:00:00Z"}""");
        assertEquals(id, updated.get(0).get("id").asText());
        assertEquals("CANCELED", updated.get(0).get("status").asText());
        assertEquals(0, new java.math.BigDecimal("24.99").compareTo(updated.get(0).get("price").decimalValue()));
    }

    @Test
    void salesAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode order = write(key, "POST", "/api/v1.0/orders", """
                {"email":"legacy-sale@example.com","orderId":"leg-sale-order","items":[{"name":"Legacy lamp","price":10},
                 {"name":"Legacy bulb","price":4}]}""");
        assertEquals("PROCESSED", order.get("status").asText(), order.toString());
        String lamp = order.get("result").get(0).get("id").asText();
        String bulb = order.get("result").get(1).get("id").asText();
        JsonNode updated = legacy("UPDATE_SALE", "sale:" + lamp, """
                {"ids":["%s"],"recurring":true,"refunded":true,"refundedDate":"2026-01-05T00:00:00Z","refundedAmount":"2.50"}"""
                .formatted(lamp));
        assertEquals(2, updated.size(), "the order's sales");
        JsonNode sale = updated.get(0).get("id").asText().equals(lamp) ? updated.get(0) : updated.get(1);
        assertTrue(sale.get("recurring").asBoolean());
        assertEquals(0, new java.math.BigDecimal("2.50").compareTo(sale.get("price").get("refunded").decimalValue()), sale.toString());
        legacy("DELETE_SALE", "sale:" + bulb, "{\"id\":\"" + bulb + "\"}");
        assertEquals(0, get(key, "/api/v1.0/sales?ids=" + list(bulb)).body().get("result").size());
    }

    @Test
    void orderRefundsAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode order = write(key, "POST", "/api/v1.0/orders", """
                {"email":"legacy-refund@example.com","orderId":"leg-refund","items":[{"name":"Legacy chair","price":30},
                 {"name":"Legacy table","price":10}]}""");
        assertEquals("PROCESSED", order.get("status").asText(), order.toString());
        JsonNode refunded = legacy("REFUND_ORDER", "order:leg-refund", """
                {"id":"leg-refund","refundedAmount":"8.00"}""");
        assertEquals(2, refunded.size());
        java.math.BigDecimal total = java.math.BigDecimal.ZERO;
        for (JsonNode sale : refunded) {
            total = total.add(sale.get("price").get("refunded").decimalValue());
        }
        assertEquals(0, new java.math.BigDecimal("8.00").compareTo(total), refunded.toString());
    }

    @Test
    void ordersAcceptedBeforeTheUpgradeAreAppliedAndRecognisedWhenSentAgain() throws Exception {
        JsonNode created = legacy("CREATE_ORDER", "order:leg-ord", """
                {"orderId":"leg-ord","email":"legacy-order@example.com","phoneNumbers":[],"leadIps":[],"priceFormat":"DECIMAL",
                 "shippingCost":"5","items":[{"name":"Legacy kettle","price":"20.00","quantity":2,"sku":"K-1","isRebill":false,
                 "packages":[]}]}""");
        assertEquals(1, created.size());
        assertEquals("Legacy kettle", created.get(0).get("product").get("name").asText(), created.toString());
        // the content digest of an order stored before is the one the new version computes: a retry is a no-op
        JsonNode retry = write(key, "POST", "/api/v1.0/orders", """
                {"email":"legacy-order@example.com","orderId":"leg-ord","shippingCost":5,
                 "items":[{"name":"Legacy kettle","price":20,"quantity":2,"sku":"K-1"}]}""");
        assertEquals("PROCESSED", retry.get("status").asText(), retry.toString());
        assertEquals(created.get(0).get("id").asText(), retry.get("result").get(0).get("id").asText());
        JsonNode other = write(key, "POST", "/api/v1.0/orders", """
                {"email":"legacy-order@example.com","orderId":"leg-ord","items":[{"name":"Legacy kettle","price":21}]}""");
        assertEquals("FAILED", other.get("status").asText(), other.toString());
        JsonNode updated = legacy("UPDATE_ORDER", "order:leg-ord", """
                {"id":"leg-ord","priceFormat":"INTEGER","items":[{"name":"Legacy teapot","price":"2500","quantity":1,
                 "isRebill":false,"packages":[]}]}""");
        assertEquals(1, updated.size());
        assertEquals("Legacy teapot", updated.get(0).get("product").get("name").asText());
        assertEquals(0, new java.math.BigDecimal("25").compareTo(updated.get(0).get("price").get("price").decimalValue()), updated.toString());
    }

    @Test
    void leadWritesAcceptedBeforeTheUpgradeAreApplied() throws Exception {
        JsonNode created = legacy("CREATE_LEAD", "legacy-lead@example.com", """
                {"email":"legacy-lead@example.com","phoneNumbers":["+15550002222"],"firstName":"Ada","lastName":"Byron",
                 "tags":["!legacy"],"tagsDate":"2026-01-10T10:00:00Z","leadIps":["10.0.0.2"],"stage":"Trial",
                 "adOptimizationConsent":"GRANTED"}""");
        String id = created.get("id").asText();
        assertEquals("Ada", created.get("firstName").asText());
        assertEquals("GRANTED", created.get("adOptimizationConsent").asText());
        assertEquals("Trial", created.get("currentStage").get("name").asText());
        assertTrue(created.get("tags").toString().contains("!legacy"), created.toString());
        assertTrue(created.get("phoneNumbers").toString().contains("+15550002222"), created.toString());
        JsonNode phoneOnly = legacy("CREATE_LEAD", "+15550003333", """
                {"phoneNumbers":["+15550003333"],"tags":[],"leadIps":[]}""");
        assertTrue(phoneOnly.get("email").asText().startsWith("15550003333@"), phoneOnly.toString());
        JsonNode grouped = legacy("CREATE_LEAD", "legacy-group@example.com", """
                {"email":"legacy-group@example.com","phoneNumbers":[],"lastName":"Grouped","tags":[],"leadIps":[]}""");
        assertEquals("Grouped", grouped.get("lastName").asText());
        assertEquals("UNSPECIFIED", grouped.get("adOptimizationConsent").asText());

        JsonNode updated = legacy("UPDATE_LEAD", "legacy-lead@example.com", """
                {"selectEmail":"legacy-lead@example.com","firstName":"Augusta","tags":["!updated"],"removeTags":["!legacy"],
                 "leadIps":[],"phoneNumbers":["+15550004444"],"adOptimizationConsent":"DENIED",
                 "leadStage":{"name":"Customer","date":"2026-01-12T00:00:00Z"},"removeLeadStages":[]}""");
        assertEquals(id, updated.get("id").asText());
        assertEquals("Augusta", updated.get("firstName").asText());
        assertEquals("DENIED", updated.get("adOptimizationConsent").asText());
        assertEquals("Customer", updated.get("currentStage").get("name").asText());
        assertFalse(updated.get("tags").toString().contains("!legacy"), updated.toString());
        assertTrue(updated.get("phoneNumbers").toString().contains("+15550004444"), updated.toString());
        JsonNode bySelectId = legacy("UPDATE_LEAD", id, """
                {"selectId":"%s","lastName":"King","tags":[],"removeTags":[],"leadIps":[],"phoneNumbers":[],
                 "removeLeadStages":["Customer"]}""".formatted(id));
        assertEquals("King", bySelectId.get("lastName").asText());
        assertTrue(bySelectId.get("currentStage") == null || bySelectId.get("currentStage").isNull(), bySelectId.toString());

        JsonNode tagged = legacy("ADD_TAGS_TO_LEADS", "bulk-tags", """
                {"ids":["%s"],"emails":["legacy-group@example.com"],"tags":["!bulk"],"tagsDate":"2026-01-11T00:00:00Z"}""".formatted(id));
        assertEquals(2, tagged.size(), tagged.toString());
        assertTrue(tagged.get(0).get("tags").toString().contains("!bulk"), tagged.toString());

        legacy("DELETE_LEAD", "legacy-lead@example.com", "{\"selectEmail\":\"legacy-lead@example.com\",\"leadId\":\"" + id + "\"}");
        assertEquals(0, get(key, "/api/v1.0/leads?ids=" + list(id)).body().get("result").size());
        legacy("DELETE_LEAD", "legacy-group@example.com", "{\"selectEmail\":\"legacy-group@example.com\"}");
        assertEquals(0, get(key, "/api/v1.0/leads?emails=" + list("legacy-group@example.com")).body().get("result").size());
    }
}
