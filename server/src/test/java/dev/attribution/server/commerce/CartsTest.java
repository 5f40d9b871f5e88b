package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Carts (spec 4.12, 2.10, 3.3): create, PUT as the real client sends it, purchased when an order names the cart. */
@MicronautTest(transactional = false)
class CartsTest extends ApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    JsonNode cart(String method, String json) {
        JsonNode status = write(key, method, "/api/v1.0/carts", json);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        return status.get("result");
    }

    List<String> ids(String query) {
        List<String> out = new ArrayList<>();
        Response r = get(key, "/api/v1.0/carts" + query);
        assertEquals(200, r.status(), r.raw());
        r.body().get("result").forEach(c -> out.add(c.get("id").asText()));
        return out;
    }

    @Test
    void createAnswersTheCartShapeAndIsNotPurchased() {
        JsonNode cart = cart("POST", "{\"cartId\":\"cart-1\",\"email\":\"shopper@example.com\",\"date\":\"2026-01-03T08:00:00-05:00\","
                + "\"items\":[{\"name\":\"Shoes\",\"price\":49.99,\"quantity\":2,\"sku\":\"SH-1\"}]}");
        assertEquals("cart-1", cart.get("id").asText());
        assertEquals("2026-01-03T13:00:00Z", cart.get("creationDate").asText());
        assertEquals(1, cart.get("events").asInt());
        assertFalse(cart.has("orderId"));
        assertEquals("shopper@example.com", cart.get("lead").get("email").asText());
        assertEquals("UNSPECIFIED", cart.get("lead").get("adOptimizationConsent").asText());
        assertEquals("Shoes", cart.get("products").get(0).get("name").asText());
        Money.assertAmount("49.99", cart.get("products").get(0).get("price"));
        assertTrue(ids("?purchased=false").contains("cart-1"));
        assertFalse(ids("?purchased=true").contains("cart-1"));
        assertTrue(ids("").contains("cart-1"));
    }

    @Test
    void aCartWithoutEmailOrPhoneHasNoLead() {
        JsonNode cart = cart("POST", "{\"items\":[{\"name\":\"Anonymous\",\"price\":1}]}");
        assertFalse(cart.has("lead"));
    }

    @Test
    void itemsAreRequired() {
        assertEquals("A cart must contain at least one item", post(key, "/api/v1.0/carts", "{\"email\":\"a@example.com\"}").message());
        assertEquals("A cart must contain at least one item", post(key, "/api/v1.0/carts", "{\"items\":[]}").message());
        assertEquals("Missing required field: items[0].price", post(key, "/api/v1.0/carts", "{\"items\":[{\"name\":\"Xylo\"}]}").message());
        assertEquals("items[0].name must have at least 3 characters", post(key, "/api/v1.0/carts", "{\"items\":[{\"name\":\"ab\",\"price\":1}]}").message());
    }

    @Test
    void aRefusedItemFieldIsNamedWithItsItem() {
        assertEquals("items[0].price must be a number", post(key, "/api/v1.0/carts", "{\"items\":[{\"name\":\"Xylo\",\"price\":\"1\"}]}").message());
        assertEquals("items[1].quantity must be a whole number between 1 and 100000", post(key, "/api/v1.0/carts",
                "{\"items\":[{\"name\":\"Xylo\",\"price\":1},{\"name\":\"Yoyo\",\"price\":1,\"quantity\":1.5}]}").message());
        assertEquals("items[0].name must be a string", post(key, "/api/v1.0/carts", "{\"items\":[{\"name\":7,\"price\":1}]}").message());
        assertEquals("items must be an array of objects", post(key, "/api/v1.0/carts", "{\"items\":[\"Xylo\"]}").message());
        assertEquals("A cart must contain at least one item", post(key, "/api/v1.0/carts", "{\"items\":\"Xylo\"}").message());
        assertEquals("Invalid priceFormat 'CENTS'. Accepted values: DECIMAL, INTEGER",
                post(key, "/api/v1.0/carts", "{\"priceFormat\":\"CENTS\",\"items\":[{\"name\":\"Xylo\",\"price\":1}]}").message());
        JsonNode integer = cart("POST", "{\"priceFormat\":\"INTEGER\",\"currency\":\"usd\",\"items\":[{\"name\":\"Minor\",\"price\":1999}]}");
        Money.assertAmount("19.99", integer.get("products").get(0).get("price"));
    }

    @Test
    void failedMessagesForInvalidEmailAndTooLargeTotal() {
        JsonNode badEmail = write(key, "POST", "/api/v1.0/carts", "{\"email\":\"bad-email\",\"items\":[{\"name\":\"Xylo\",\"price\":1}]}");
        assertEquals("FAILED", badEmail.get("status").asText());
        assertEquals("The provided email is invalid", badEmail.get("errorMessage").asText());
        JsonNode tooLarge = write(key, "POST", "/api/v1.0/carts", "{\"items\":[{\"name\":\"Xylo\",\"price\":99999999.99,\"quantity\":2}]}");
        assertEquals("FAILED", tooLarge.get("status").asText());
        assertEquals("The cart total is above the maximum allowed amount", tooLarge.get("errorMessage").asText());
    }

    @Test
    void theSameCartIdAgainIsNotAnErrorAndPutUpdatesLikeTheClient() {
        cart("POST", "{\"cartId\":\"cart-again\",\"items\":[{\"name\":\"One Item\",\"price\":1}]}");
        JsonNode again = cart("POST", "{\"cartId\":\"cart-again\",\"email\":\"later@example.com\",\"items\":[{\"name\":\"Two Item\",\"price\":2}]}");
        assertEquals(2, again.get("events").asInt());
        assertEquals("Two Item", again.get("products").get(0).get("name").asText());
        JsonNode status = write(key, "PUT", "/api/v1.0/carts", "{\"cartId\":\"cart-again\",\"items\":[{\"name\":\"Three\",\"price\":3}],\"leadIps\":[\"1.1.1.1\"]}");
        assertEquals("UPDATE_CART", status.get("eventType").asText());
        JsonNode updated = status.get("result");
        assertEquals(3, updated.get("events").asInt());
        assertEquals("later@example.com", updated.get("lead").get("email").asText());
        assertEquals("Missing required field: cartId", put(key, "/api/v1.0/carts", "{\"items\":[{\"name\":\"Xylo\",\"price\":1}]}").message());
        JsonNode missing = write(key, "PUT", "/api/v1.0/carts", "{\"cartId\":\"nope\",\"items\":[{\"name\":\"Xylo\",\"price\":1}]}");
        assertEquals("Cart not found", missing.get("errorMessage").asText());
    }

    @Test
    void anOrderNamingTheCartMakesItPurchased() {
        cart("POST", "{\"cartId\":\"cart-buy\",\"email\":\"buyer@example.com\",\"items\":[{\"name\":\"Thing\",\"price\":5}]}");
        JsonNode order = write(key, "POST", "/api/v1.0/orders", "{\"email\":\"buyer@example.com\",\"orderId\":\"ord-cart\",\"cartId\":\"cart-buy\",\"items\":[{\"name\":\"Thing\",\"price\":5}]}");
        assertEquals("PROCESSED", order.get("status").asText());
        assertTrue(ids("?purchased=true").contains("cart-buy"));
        assertFalse(ids("?purchased=false").contains("cart-buy"));
        JsonNode cart = get(key, "/api/v1.0/carts?purchased=true").body().get("result").get(0);
        assertEquals("ord-cart", cart.get("orderId").asText());
        JsonNode change = write(key, "PUT", "/api/v1.0/carts", "{\"cartId\":\"cart-buy\",\"items\":[{\"name\":\"Xylo\",\"price\":1}]}");
        assertEquals("The cart could not be processed for this account", change.get("errorMessage").asText());
    }

    @Test
    void listIsStrictAndFiltersByLeadAndDates() {
        assertEquals("Unknown parameter: ids", get(key, "/api/v1.0/carts?ids=x").message());
        assertEquals("Duplicate parameter: purchased", get(key, "/api/v1.0/carts?purchased=true&purchased=false").message());
        JsonNode cart = cart("POST", "{\"cartId\":\"cart-filter\",\"email\":\"filter-cart@example.com\",\"date\":\"2026-02-10T10:00:00Z\",\"items\":[{\"name\":\"Fig\",\"price\":1}]}");
        assertEquals(List.of("cart-filter"), ids("?emails=" + list("filter-cart")));
        assertEquals(List.of("cart-filter"), ids("?leadIds=" + list(cart.get("lead").get("id").asText())));
        assertEquals(List.of("cart-filter"), ids("?fromDate=2026-02-01&toDate=2026-02-28"));
    }
}
