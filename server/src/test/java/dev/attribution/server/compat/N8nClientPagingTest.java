package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * "Return all" of {@code n8n-nodes-hyros} ({@code hyrosApiRequestAllItems}) on every list it pages through, each list
 * holding more than one page of 250: the node sends {@code pageSize=250}, then the same parameters plus
 * {@code pageId=<nextPageId>} until {@code nextPageId} is absent or null. Every item must come exactly once and the
 * paging must end. The rows are written by plain API calls on an account of their own (one lane per row, so the
 * workers apply them in parallel); only the reads are the node's.
 */
@MicronautTest(transactional = false)
class N8nClientPagingTest extends ApiTest {

    static final int N = 260;

    @Test
    void returnAllFollowsNextPageIdToTheEndOnEveryList() {
        String account = RequestIds.next("acc_");
        directory.createAccount(account, "n8n paging " + account, null, ZoneId.of("America/New_York"), "USD");
        directory.setRateOverride(account, 100_000, 1_000_000);
        String key = ApiKeys.newKey();
        directory.createKey(account, ApiKeys.hash(key), Roles.ALL, false);
        N8nClient n8n = new N8nClient(server.getURL().toString(), key, null);

        List<String> requests = new ArrayList<>();
        StringBuilder manyTags = new StringBuilder();
        for (int i = 0; i < N; i++) {
            manyTags.append(i == 0 ? "" : ",").append("\"!bulk-").append(i).append('"');
        }
        accepted(post(key, "/api/v1.0/leads", "{\"email\":\"tags@example.com\",\"tags\":[" + manyTags + "]}"), requests);
        List<String> clickEmails = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            String email = "p" + i + "@example.com";
            if (i < 50) {
                clickEmails.add('"' + email + '"');
            }
            accepted(post(key, "/api/v1.0/leads", "{\"email\":\"" + email + "\",\"stage\":\"Stage " + i + "\"}"), requests);
            accepted(post(key, "/api/v1.0/products", "{\"name\":\"Product " + i + "\",\"price\":1}"), requests);
            accepted(post(key, "/api/v1.0/sources", "{\"name\":\"Source " + i + "\"}"), requests);
            accepted(post(key, "/api/v1.0/calls", "{\"name\":\"Call " + i + "\",\"email\":\"" + email + "\"}"), requests);
            accepted(post(key, "/api/v1.0/clicks", "{\"referrerUrl\":\"https://bulk.example.com/" + i + "\",\"email\":\"p"
                    + (i % 50) + "@example.com\"}"), requests);
            accepted(post(key, "/api/v1.0/carts", "{\"email\":\"" + email + "\",\"cartId\":\"cart-" + i
                    + "\",\"items\":[{\"name\":\"Bulk\",\"price\":1}]}"), requests);
            accepted(post(key, "/api/v1.0/subscriptions", "{\"email\":\"" + email + "\",\"status\":\"ACTIVE\","
                    + "\"startDate\":\"2026-11-01T00:00:00\",\"price\":1,\"periodicity\":\"MONTH\",\"subscriptionId\":\"sub-" + i + "\"}"),
                    requests);
            assertEquals(200, post(key, "/api/v1.0/url-rules", "{\"name\":\"Rule " + i + "\",\"tag\":\"!rule-" + i
                    + "\",\"wordsToMatch\":[\"bulk-" + i + "\"],\"sourceRuleTypes\":[\"REFERRER_URL\"]}").status());
            if (i % 2 == 0) {
                accepted(post(key, "/api/v1.0/orders", "{\"email\":\"" + email + "\",\"items\":[{\"name\":\"Bulk A\",\"price\":1},"
                        + "{\"name\":\"Bulk B\",\"price\":2}]}"), requests);
            }
        }
        requests.forEach(id -> awaitRequest(key, id));
        String tag = get(key, "/api/v1.0/sources?pageSize=1").body().get("result").get(0).get("tag").asText();
        requests.clear();
        for (int i = 0; i < N; i++) {
            accepted(post(key, "/api/v1.0/custom-costs", "{\"startDate\":\"2026-11-01\",\"frequency\":\"DAILY\",\"cost\":" + (i + 1)
                    + ",\"tags\":[\"" + tag + "\"]}"), requests);
        }
        requests.forEach(id -> awaitRequest(key, id));

        Map<String, Map<String, Object>> lists = new LinkedHashMap<>();
        lists.put("/leads", Map.of());
        lists.put("/sales", Map.of("isRecurringSale", "ALL", "saleRefundedState", "ALL"));
        lists.put("/calls", Map.of());
        lists.put("/products", Map.of());
        lists.put("/tags/count", Map.of());
        lists.put("/sources", Map.of("includeOrganic", true));
        lists.put("/custom-costs", Map.of());
        lists.put("/leads/clicks", Map.of("emails", String.join(",", clickEmails)));
        lists.put("/carts", Map.of());
        lists.put("/subscriptions", Map.of());
        lists.put("/url-rules", Map.of());
        lists.put("/stages", Map.of());
        // the orders' items made two products (and their sale tags); the tag lead is a lead of its own
        Map<String, Integer> expected = Map.of("/leads", N + 1, "/sales", N, "/products", N + 2);
        Map<String, Integer> counts = new LinkedHashMap<>();
        lists.forEach((path, query) -> {
            List<JsonNode> items = n8n.all(path, query);
            Set<String> distinct = new HashSet<>();
            items.forEach(item -> distinct.add(item.toString()));
            assertEquals(items.size(), distinct.size(), path + ": an item came twice across pages");
            counts.put(path, items.size());
        });
        lists.keySet().forEach(path -> assertEquals(expected.getOrDefault(path, N), counts.get(path), path + " in " + counts));
    }

    private static void accepted(Response r, List<String> requestIds) {
        assertEquals(200, r.status(), r.raw());
        requestIds.add(r.body().get("request_id").asText());
    }
}
