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

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Write workers of two nodes over one PostgreSQL: the ordering keys are shared between them (each transaction takes
 * the keys it applies with transaction-scoped advisory locks, WriteClaims), and every write accepted on either node is
 * applied exactly once.
 */
class TwoNodeWorkersTest extends TwoNodeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void writesAcceptedOnEitherNodeAreAllAppliedOnce() throws Exception {
        AccountDirectory directory = nodes.get(0).getApplicationContext().getBean(AccountDirectory.class);
        String account = RequestIds.next("acc_");
        directory.createAccount(account, "Workers " + account, null, ZoneId.of("UTC"), "USD");
        String key = ApiKeys.newKey();
        directory.createKey(account, ApiKeys.hash(key), Roles.ALL, false);
        directory.setRateOverride(account, 1000, 100_000);
        for (int i = 0; i < 60; i++) {
            EmbeddedServer node = nodes.get(i % 2);
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(node.getURL() + "/api/v1.0/leads"))
                    .header("API-Key", key).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"email\":\"w" + i + "@example.com\",\"tags\":[\"t\"]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
        }
        long deadline = System.currentTimeMillis() + 60_000;
        while (count("SELECT count(*) FROM write_requests WHERE account_id = ? AND status = 'PENDING'", account) > 0
                && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
        }
        assertEquals(60, count("SELECT count(*) FROM write_requests WHERE account_id = ? AND status = 'PROCESSED'", account));
        assertEquals(60, count("SELECT count(*) FROM leads WHERE account_id = ?", account), "one lead per write");
        assertEquals(60, count("SELECT count(*) FROM lead_tags WHERE account_id = ?", account), "each write applied once");
    }

    private static long count(String sql, String account) throws Exception {
        try (Connection c = TestStack.get().connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, account);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
