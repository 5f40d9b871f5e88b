package dev.attribution.server.platform;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.testing.TestStack;
import io.micronaut.runtime.server.EmbeddedServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 8.1.1 across server nodes: two application contexts over one PostgreSQL with
 * {@code attribution.rate-limits.store=postgres} charge one account's requests to one shared budget.
 */
class SharedRateLimitTest extends TwoNodeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Override
    Map<String, Object> nodeProperties() {
        return Map.of("attribution.rate-limits.store", "postgres");
    }

    @Test
    void twoNodesShareOneAccountsBudget() throws Exception {
        // a per-minute budget of 4: refill (one token per 15 s) cannot slip in between the six requests on a slow machine
        String key = account(1000, 4);
        List<Integer> statuses = new ArrayList<>();
        List<String> remaining = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = get(nodes.get(i % 2), key, "/api/v1.0/leads");
            statuses.add(r.statusCode());
            remaining.add(r.headers().firstValue("X-RateLimit-Remaining").orElse(null));
        }
        assertEquals(List.of(200, 200, 200, 200, 429, 429), statuses, "4 per minute across both nodes");
        assertEquals(List.of("3", "2", "1", "0", "0", "0"), remaining);
        try (Connection c = TestStack.get().connect();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM rate_limit_buckets WHERE id LIKE ?")) {
            ps.setString(1, "%|GET /api/v1.0/leads|1000/4");
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertTrue(rs.getInt(1) >= 1, "the bucket lives in PostgreSQL");
            }
        }
    }

    @Test
    void concurrentRequestsOnBothNodesNeverExceedTheBudget() throws Exception {
        String key = account(1000, 20);
        List<Thread> threads = new ArrayList<>();
        int[] ok = new int[1];
        for (int t = 0; t < 4; t++) {
            EmbeddedServer node = nodes.get(t % 2);
            Thread thread = new Thread(() -> {
                for (int i = 0; i < 10; i++) {
                    try {
                        if (get(node, key, "/api/v1.0/leads").statusCode() == 200) {
                            synchronized (ok) {
                                ok[0]++;
                            }
                        }
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertEquals(20, ok[0], "40 requests over two nodes, 20 per minute allowed");
    }

    private String account(int perSecond, int perMinute) {
        AccountDirectory directory = nodes.get(0).getApplicationContext().getBean(AccountDirectory.class);
        String id = RequestIds.next("acc_");
        directory.createAccount(id, "Shared " + id, null, ZoneId.of("UTC"), "USD");
        String key = ApiKeys.newKey();
        directory.createKey(id, ApiKeys.hash(key), Roles.ALL, false);
        directory.setRateOverride(id, perSecond, perMinute);
        return key;
    }

    private static HttpResponse<String> get(EmbeddedServer node, String key, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(node.getURL() + path)).header("API-Key", key).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
