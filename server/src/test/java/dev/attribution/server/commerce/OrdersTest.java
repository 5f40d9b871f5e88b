package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Orders (spec 4.2, 3.2): one sale per item, exact money, leads, refunds and updates. */
@MicronautTest(transactional = false)
class OrdersTest extends ApiTest {

    static final String LEGACY = "[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{2}:\\d{2}:\\d{2} [A-Z]{3,4} \\d{4}";

    @Inject
    DataSource dataSource;

    String key;

    @BeforeAll
    void account() {
        // many quick writes and refusals from one account: on a fast machine they pass the default 30 requests/s
        key = newUnthrottledAccount("America/New_York", Roles.ALL);
    }

    JsonNode order(String json) {
        JsonNode status = write(key, "POST", "/api/v1.0/orders", json);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        return status;
    }

    static String threeItems(String email, String orderId, String extra) {
        return """
                {"email":"%s","orderId":"%s","items":[
                  {"name":"Alpha Item","price":10.00,"quantity":2,"costOfGoods":1.5},
                  {"name":"Beta Item","price":5.55},
                  {"name":"Gamma Item","price":0.99,"quantity":3,"taxes":0.10}],
                 "shippingCost":10.00,"taxes":1.00,"orderDiscount":0.10,"hardCost":2.00%s}""".formatted(email, orderId, extra);
    }

    @Test
    void anOrderIsOneSalePerItemAndThePartsAddUpToTheWholeExactly() {
        JsonNode status = order(threeItems("buyer1@example.com", "ord-exact-1", ""));
        assertEquals("CREATE_ORDER", status.get("eventType").asText());
        JsonNode sales = status.get("result");
        assertTrue(sales.isArray());
        assertEquals(3, sales.size());
        // 20.00 + 5.55 + 2.97 + item taxes 0.30 + shipping 10.00 + taxes 1.00 - discount 0.10
        assertEquals(0, new BigDecimal("39.72").compareTo(Money.sum(sales, "price")));
        assertEquals(0, new BigDecimal("2.00").compareTo(Money.sum(sales, "hardCost")));
        assertEquals(0, new BigDecimal("0.10").compareTo(Money.sum(sales, "discount")));
        // shipping 10.00 spread evenly: 3.34 + 3.33 + 3.33; alpha: 20.00 + 3.34 + 0.34 taxes - 0.04 discount
        Money.assertAmount("23.64", sales.get(0).get("price").get("price"));
        Money.assertAmount("0.67", sales.get(0).get("price").get("hardCost"));
        Money.assertAmount("0.66", sales.get(2).get("price").get("hardCost"));
        for (JsonNode sale : sales) {
            assertEquals("ord-exact-1", sale.get("orderId").asText());
            assertEquals("USD", sale.get("price").get("currency").asText());
            Money.assertAmount("0", sale.get("price").get("refunded"));
            assertTrue(sale.get("creationDate").asText().matches(LEGACY), sale.get("creationDate").asText());
            assertFalse(sale.has("refundDate"));
            assertEquals("buyer1@example.com", sale.get("lead").get("email").asText());
            assertTrue(sale.get("lead").get("creationDate").asText().matches(LEGACY), "embedded lead date is legacy");
            assertTrue(sale.get("id").asText().startsWith("sle_"));
        }
        assertEquals(2, sales.get(0).get("quantity").asInt());
        assertEquals("$alpha-item", sales.get(0).get("product").get("tag").asText());
    }

    @Test
    void theLeadIsCreatedWhenAbsent() {
        order(threeItems("newbuyer@example.com", "ord-newlead", ",\"firstName\":\"Nora\",\"phoneNumbers\":\"+15550001111\",\"leadIps\":[\"1.2.3.4\"]"));
        JsonNode leads = get(key, "/api/v1.0/leads?emails=" + list("newbuyer@example.com")).body().get("result");
        assertEquals(1, leads.size());
        assertEquals("Nora", leads.get(0).get("firstName").asText());
        assertEquals("[\"+15550001111\"]", leads.get(0).get("phoneNumbers").toString());
        assertEquals("[\"1.2.3.4\"]", leads.get(0).get("ips").toString());
    }

    @Test
    void integerFormatIsMinorUnitsAndCurrencyDefaultsToTheAccount() {
        JsonNode usd = order("{\"email\":\"int@example.com\",\"priceFormat\":\"INTEGER\",\"items\":[{\"name\":\"Cents Item\",\"price\":1999}],\"shippingCost\":101}").get("result");
        Money.assertAmount("21.00", usd.get(0).get("price").get("price"));
        assertEquals("USD", usd.get(0).get("price").get("currency").asText());
        JsonNode yen = order("{\"email\":\"yen@example.com\",\"priceFormat\":\"INTEGER\",\"currency\":\"JPY\",\"items\":[{\"name\":\"Yen Item\",\"price\":500},{\"name\":\"Yen Item Two\",\"price\":500}],\"shippingCost\":101}").get("result");
        assertEquals("JPY", yen.get(0).get("price").get("currency").asText());
        Money.assertAmount("551", yen.get(0).get("price").get("price"));
        Money.assertAmount("550", yen.get(1).get("price").get("price"));
        JsonNode eur = order("{\"email\":\"eur@example.com\",\"currency\":\"eur\",\"items\":[{\"name\":\"Euro Item\",\"price\":9.99}]}").get("result");
        assertEquals("EUR", eur.get(0).get("price").get("currency").asText());
    }

    @Test
    void validationMessages() {
        assertRejected("{\"email\":\"v@example.com\"}", "Missing required field: items");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[]}", "items must contain at least one item");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"price\":1}]}", "Missing required field: items[0].name");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"No Price\"}]}", "Missing required field: items[0].price");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"ab\",\"price\":1}]}", "items[0].name must have at least 3 characters");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1,\"tag\":\"@source\"}]}", "items[0].tag must be a sale tag ($)");
        assertRejected("{\"items\":[{\"name\":\"Nobody\",\"price\":1}]}", "Either email or phoneNumbers must be provided");
        assertRejected("{\"email\":\"v@example.com\",\"orderId\":\"has space\",\"items\":[{\"name\":\"Item\",\"price\":1}]}",
                "Invalid orderId: only letters, digits, underscores (_), hyphens (-), periods (.) and colons (:) are allowed, with no spaces");
        assertRejected("{\"email\":\"v@example.com\",\"orderId\":\"a/b\",\"items\":[{\"name\":\"Item\",\"price\":1}]}",
                "Invalid orderId: only letters, digits, underscores (_), hyphens (-), periods (.) and colons (:) are allowed, with no spaces");
        assertRejected("{\"email\":\"v@example.com\",\"leadIps\":[\"1.1.1.1\",\"2.2.2.2\",\"3.3.3.3\",\"4.4.4.4\"],\"items\":[{\"name\":\"Item\",\"price\":1}]}",
                "The maximum number of leadIps is 3");
        assertRejected("{\"email\":\"v@example.com\",\"hardCost\":-1,\"items\":[{\"name\":\"Item\",\"price\":1}]}", "hardCost must not be negative");
        assertRejected("{\"email\":\"v@example.com\",\"currency\":\"XYZ\",\"items\":[{\"name\":\"Item\",\"price\":1}]}", "Invalid currency: XYZ");
        assertRejected("{\"email\":\"v@example.com\",\"priceFormat\":\"CENTS\",\"items\":[{\"name\":\"Item\",\"price\":1}]}",
                "Invalid priceFormat 'CENTS'. Accepted values: DECIMAL, INTEGER");
        assertRejected("{\"email\":\"v@example.com\",\"priceFormat\":\"INTEGER\",\"items\":[{\"name\":\"Item\",\"price\":1.5}]}",
                "items[0].price must be a whole number when priceFormat is INTEGER");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1,\"quantity\":0}]}",
                "items[0].quantity must be a whole number between 1 and 100000");
        assertRejected("{\"email\":\"v@example.com\",\"orderDiscount\":5,\"items\":[{\"name\":\"Item\",\"price\":1}]}",
                "The discounts cannot exceed the order total");
        assertRejected("{\"email\":\"not-an-email\",\"items\":[{\"name\":\"Item\",\"price\":1}]}", "Invalid email: not-an-email");
        assertRejected("{\"email\":\"v@example.com\",\"date\":\"2026-13-01\",\"items\":[{\"name\":\"Item\",\"price\":1}]}", "Invalid date format.");
        // a refused item field is named with its item
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":\"1\"}]}", "items[0].price must be a number");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1},{\"name\":\"Item\",\"price\":1,\"isRebill\":\"yes\"}]}",
                "items[1].isRebill must be a boolean");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1,\"packages\":7}]}",
                "items[0].packages must be a string or an array of strings");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1,\"sku\":7}]}", "items[0].sku must be a string");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1,\"quantity\":\"2\"}]}", "items[0].quantity must be a number");
        assertRejected("{\"email\":\"v@example.com\",\"items\":\"Item\"}", "items must be an array of objects");
        assertRejected("{\"email\":\"v@example.com\",\"items\":[\"Item\"]}", "items must be an array of objects");
        assertRejected("{\"email\":\"v@example.com\",\"shippingCost\":\"5\",\"items\":[{\"name\":\"Item\",\"price\":1}]}", "shippingCost must be a number");
    }

    private void assertRejected(String body, String message) {
        Response r = post(key, "/api/v1.0/orders", body);
        assertEquals(400, r.status(), body);
        assertEquals(message, r.message(), body);
        assertFalse(r.body().has("request_id"));
    }

    @Test
    void parentEmailAttributesTheSaleToTheOriginLead() {
        JsonNode sales = order("{\"email\":\"child@example.com\",\"parentEmail\":\"origin@example.com\",\"items\":[{\"name\":\"Family Item\",\"price\":3}]}").get("result");
        assertEquals("origin@example.com", sales.get(0).get("lead").get("email").asText());
        assertEquals(1, get(key, "/api/v1.0/leads?emails=" + list("child@example.com")).body().get("result").size());
    }

    @Test
    void rebillIsRecurringAndNeverAFirstSale() throws SQLException {
        JsonNode first = order("{\"email\":\"rebill@example.com\",\"date\":\"2026-01-10T10:00:00Z\",\"items\":[{\"name\":\"Plan Item\",\"price\":30}]}").get("result");
        JsonNode rebill = order("{\"email\":\"rebill@example.com\",\"date\":\"2026-02-10T10:00:00Z\",\"items\":[{\"name\":\"Plan Item\",\"price\":30,\"isRebill\":true}]}").get("result");
        assertFalse(first.get(0).get("recurring").asBoolean());
        assertTrue(rebill.get(0).get("recurring").asBoolean());
        assertEquals(List.of(true, false), flags(first.get(0).get("id").asText()));
        assertEquals(List.of(false, true), flags(rebill.get(0).get("id").asText()));
    }

    @Test
    void firstSaleIsPerLeadAndLastPurchaseMovesToTheNewestOrder() throws SQLException {
        JsonNode a = order("{\"email\":\"flags@example.com\",\"date\":\"2026-03-01T10:00:00Z\",\"items\":[{\"name\":\"Flag One\",\"price\":1},{\"name\":\"Flag Two\",\"price\":2}]}").get("result");
        JsonNode b = order("{\"email\":\"flags@example.com\",\"date\":\"2026-04-01T10:00:00Z\",\"items\":[{\"name\":\"Flag One\",\"price\":1}]}").get("result");
        JsonNode other = order("{\"email\":\"flags-other@example.com\",\"date\":\"2026-04-01T10:00:00Z\",\"items\":[{\"name\":\"Flag One\",\"price\":1}]}").get("result");
        assertEquals(List.of(true, false), flags(a.get(0).get("id").asText()));
        assertEquals(List.of(true, false), flags(a.get(1).get("id").asText()));
        assertEquals(List.of(false, true), flags(b.get(0).get("id").asText()));
        assertEquals(List.of(true, true), flags(other.get(0).get("id").asText()));
    }

    @Test
    void aRecurringProductBoughtAgainIsARecurringSale() {
        JsonNode product = write(key, "POST", "/api/v1.0/products", "{\"name\":\"Monthly Box\",\"price\":20}").get("result");
        write(key, "PUT", "/api/v1.0/products/" + product.get("id").asText(), "{\"isRecurringSale\":true}");
        JsonNode first = order("{\"email\":\"box@example.com\",\"date\":\"2026-01-01T00:00:00Z\",\"items\":[{\"name\":\"Monthly Box\",\"price\":20}]}").get("result");
        JsonNode second = order("{\"email\":\"box@example.com\",\"date\":\"2026-02-01T00:00:00Z\",\"items\":[{\"name\":\"Monthly Box\",\"price\":20}]}").get("result");
        assertFalse(first.get(0).get("recurring").asBoolean());
        assertTrue(second.get(0).get("recurring").asBoolean());
        assertEquals(product.get("id").asText(), second.get(0).get("product").get("id").asText());
    }

    @Test
    void theSameOrderIdAgainKeepsTheOrderAsFirstWritten() {
        JsonNode first = order("{\"email\":\"retry@example.com\",\"orderId\":\"ord-retry\",\"items\":[{\"name\":\"Retry Item\",\"price\":4}]}").get("result");
        JsonNode again = order("{\"email\":\"retry@example.com\",\"orderId\":\"ord-retry\",\"items\":[{\"name\":\"Retry Item\",\"price\":4}]}").get("result");
        assertEquals(first.get(0).get("id"), again.get(0).get("id"));
        assertEquals(1, again.size());
    }

    @Test
    void updateReplacesTheItemsAndKeepsOrClearsHardCost() {
        JsonNode created = order(threeItems("upd@example.com", "ord-upd", "")).get("result");
        JsonNode kept = write(key, "PUT", "/api/v1.0/orders/ord-upd", "{\"items\":[{\"name\":\"Delta Item\",\"price\":7},{\"name\":\"Epsilon Item\",\"price\":3}]}");
        assertEquals("PROCESSED", kept.get("status").asText(), kept.toString());
        assertEquals("UPDATE_ORDER", kept.get("eventType").asText());
        JsonNode sales = kept.get("result");
        assertEquals(2, sales.size());
        assertNotEquals(created.get(0).get("id"), sales.get(0).get("id"));
        assertEquals(0, new BigDecimal("2.00").compareTo(Money.sum(sales, "hardCost")), "hardCost kept when omitted");
        assertEquals(0, new BigDecimal("10").compareTo(Money.sum(sales, "price")));
        JsonNode listed = get(key, "/api/v1.0/sales?emails=" + list("upd@example.com")).body().get("result");
        assertEquals(2, listed.size(), "old sales soft-deleted");
        JsonNode cleared = write(key, "PUT", "/api/v1.0/orders/ord-upd", "{\"hardCost\":0,\"items\":[{\"name\":\"Delta Item\",\"price\":7}]}").get("result");
        assertEquals(0, BigDecimal.ZERO.compareTo(Money.sum(cleared, "hardCost")), "0 clears hardCost");
        Response negative = put(key, "/api/v1.0/orders/ord-upd", "{\"hardCost\":-2,\"items\":[{\"name\":\"Delta Item\",\"price\":7}]}");
        assertEquals("hardCost must not be negative", negative.message());
        assertEquals("Missing required field: items", put(key, "/api/v1.0/orders/ord-upd", "{}").message());
    }

    @Test
    void updateResolvesTheOrderThroughAnItemExternalIdWithIntegrationType() {
        order("{\"email\":\"ext@example.com\",\"orderId\":\"ord-ext\",\"items\":[{\"name\":\"Ext Item\",\"price\":5,\"externalId\":\"li_77\"}]}");
        JsonNode updated = write(key, "PUT", "/api/v1.0/orders/li_77", "{\"integrationType\":\"API\",\"items\":[{\"name\":\"Ext Item\",\"price\":6}]}");
        assertEquals("PROCESSED", updated.get("status").asText(), updated.toString());
        assertEquals("ord-ext", updated.get("result").get(0).get("orderId").asText());
        JsonNode missing = write(key, "PUT", "/api/v1.0/orders/no-such-order", "{\"items\":[{\"name\":\"Ext Item\",\"price\":6}]}");
        assertEquals("FAILED", missing.get("status").asText());
        assertEquals("Order not found", missing.get("errorMessage").asText());
    }

    @Test
    void refundKeepsTheSalesWithRefundDateAndRefundedAmount() {
        order(threeItems("refund@example.com", "ord-refund", ""));
        JsonNode refund = write(key, "DELETE", "/api/v1.0/orders/ord-refund?refundedAmount=10.01", null);
        assertEquals("PROCESSED", refund.get("status").asText(), refund.toString());
        assertEquals("REFUND_ORDER", refund.get("eventType").asText());
        JsonNode sales = refund.get("result");
        assertEquals(3, sales.size());
        assertEquals(0, new BigDecimal("10.01").compareTo(Money.sum(sales, "refunded")));
        assertEquals(0, new BigDecimal("2.00").compareTo(Money.sum(sales, "hardCost")), "costs untouched");
        for (JsonNode sale : sales) {
            assertTrue(sale.get("refundDate").asText().matches(LEGACY));
        }
        JsonNode full = write(key, "DELETE", "/api/v1.0/orders/ord-exact-full", null);
        assertEquals("FAILED", full.get("status").asText());
        assertEquals("Order not found", full.get("errorMessage").asText());
        order("{\"email\":\"refund2@example.com\",\"orderId\":\"ord-refund-2\",\"items\":[{\"name\":\"Whole Refund\",\"price\":8}]}");
        JsonNode whole = write(key, "DELETE", "/api/v1.0/orders/ord-refund-2", null).get("result");
        Money.assertAmount("8", whole.get(0).get("price").get("refunded"));
        JsonNode tooMuch = write(key, "DELETE", "/api/v1.0/orders/ord-refund-2?refundedAmount=9", null);
        assertEquals("refundedAmount cannot exceed the order total", tooMuch.get("errorMessage").asText());
        assertEquals("Invalid refundedAmount: abc", delete(key, "/api/v1.0/orders/ord-refund-2?refundedAmount=abc").message());
    }

    @Test
    void saleEventsAreRecordedInTheOutbox() throws SQLException {
        JsonNode sales = order("{\"email\":\"events@example.com\",\"orderId\":\"ord-events\",\"items\":[{\"name\":\"Evt One\",\"price\":1},{\"name\":\"Evt Two\",\"price\":1}]}").get("result");
        write(key, "DELETE", "/api/v1.0/orders/ord-events", null);
        write(key, "DELETE", "/api/v1.0/orders/ord-events", null);
        List<String> ids = new ArrayList<>();
        sales.forEach(s -> ids.add(s.get("id").asText()));
        assertEquals(2, events("sale.attributed", ids));
        assertEquals(2, events("sale.refunded", ids));
    }

    @Test
    void theRealClientsBodyWithItsEmptyDefaultsIsAccepted() {
        // n8n-nodes-hyros sends every item field, blank strings included, and additional fields as entered
        JsonNode sales = order("""
                {"email":"n8n@example.com","items":[{"categoryName":"","costOfGoods":0,"externalId":"","isRebill":false,
                  "itemDiscount":0,"name":"Client Item","packages":"","price":12.5,"quantity":1,"sku":"","tag":"","taxes":0}],
                 "leadIps":["10.0.0.1"],"phoneNumbers":["+15551234567"],"currency":"","orderId":"","date":"","priceFormat":"DECIMAL",
                 "hardCost":0,"shippingCost":0,"taxes":0,"orderDiscount":0,"parentEmail":"","cartId":"","stage":"Customer"}""").get("result");
        assertEquals(1, sales.size());
        Money.assertAmount("12.5", sales.get(0).get("price").get("price"));
        assertEquals("USD", sales.get(0).get("price").get("currency").asText());
        assertEquals("n8n@example.com", sales.get(0).get("lead").get("email").asText());
        assertEquals("Customer", sales.get(0).get("lead").get("currentStage").get("name").asText());
    }

    @Test
    void rolesAreChecked() {
        String noRoles = newAccount("UTC", List.of("Get Sales"));
        Response r = post(noRoles, "/api/v1.0/orders", "{\"email\":\"x@example.com\",\"items\":[{\"name\":\"Item\",\"price\":1}]}");
        assertEquals(403, r.status());
        assertEquals("Forbidden, missing api key roles | Create Orders", r.message());
    }

    private List<Boolean> flags(String saleId) throws SQLException {
        try (Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT first_sale, last_purchase FROM sales WHERE id = ?")) {
            ps.setString(1, saleId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return List.of(rs.getBoolean(1), rs.getBoolean(2));
            }
        }
    }

    private int events(String type, List<String> subjects) throws SQLException {
        try (Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM domain_events WHERE event_type = ? AND subject_id = ANY(?)")) {
            ps.setString(1, type);
            ps.setArray(2, c.createArrayOf("text", subjects.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
