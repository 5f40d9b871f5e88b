package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Orders a partner sends at once, naming products the account does not have yet, all apply: each product is created
 * once and every order gets its sales.
 *
 * <p>Found by ApiWrittenRoasTest (issue 20): ProductCatalog.forItem looked the product up by name and, when absent,
 * inserted it with a tag derived from the name, in each order's own transaction. Two orders of different leads applied
 * at the same time by different workers both found nothing and both inserted; the second failed on the unique index
 * {@code products_tag} and the request ended FAILED "There was a problem while processing the request": the order was
 * lost (this test failed 2 runs of 2). Fixed on main by b370a00 (an advisory lock on the tag). Timing-dependent by nature: 10 rounds of 4 orders naming the same 20 new products, sent together, make an overlap likely.
 */
@MicronautTest(transactional = false)
class ConcurrentNewProductOrdersTest extends ApiTest {

    @Test
    void ordersNamingTheSameNewProductsAllApply() {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        List<String> pending = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            // 10 rounds of 20 new products, each round named by 4 orders of different leads sent one after the other
            StringBuilder items = new StringBuilder();
            for (int k = 0; k < 20; k++) {
                items.append(k == 0 ? "" : ",").append("{\"name\":\"Round ").append(i / 4).append(" item ").append(k).append("\",\"price\":10}");
            }
            Response r = post(key, "/api/v1.0/orders", "{\"email\":\"race" + i + "@example.com\",\"orderId\":\"race-" + i
                    + "\",\"items\":[" + items + "]}");
            assertEquals(200, r.status(), r.raw());
            pending.add(r.body().get("request_id").asText());
        }
        List<String> failed = new ArrayList<>();
        for (String id : pending) {
            JsonNode status = awaitRequest(key, id);
            if (!"PROCESSED".equals(status.get("status").asText())) {
                failed.add(status.toString());
            }
        }
        assertEquals(List.of(), failed, "orders naming the same new products, sent together");
        Response products = get(key, "/api/v1.0/products?pageSize=250");
        assertEquals(200, products.body().get("result").size(), "each product once: " + products.raw());
        int sales = 0;
        String page = "";
        do {
            Response r = get(key, "/api/v1.0/sales?pageSize=250" + page);
            assertEquals(200, r.status(), r.raw());
            sales += r.body().get("result").size();
            JsonNode next = r.body().get("nextPageId");
            page = next == null || next.isNull() ? null : "&pageId=" + enc(next.asText());
        } while (page != null);
        assertEquals(800, sales, "every order's sales");
    }
}
