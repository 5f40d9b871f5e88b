package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * {@link N8nApiTest} on the node's commerce resources, all on the test's own account: orders (create, update,
 * refund) and sales, calls, carts, subscriptions and products.
 */
@MicronautTest(transactional = false)
class N8nCommerceTest extends N8nApiTest {

    @Override
    boolean usesDemo() {
        return false;
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

    // ---------------------------------------------------------------- carts

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

    // ---------------------------------------------------------------- subscriptions

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

    // ---------------------------------------------------------------- products

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
}
