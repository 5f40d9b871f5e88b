package dev.attribution.server.platform;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.NotifiedCache;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.testing.TestStack;
import io.micronaut.runtime.server.EmbeddedServer;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-memory cache of keys and blacklists (NotifiedCache) across server nodes: two application contexts over one
 * PostgreSQL serve a key from memory, and a key revoked, an account blocked, a role withdrawn or a contact
 * blacklisted by SQL on another connection (not through this JVM's code, so only PostgreSQL's NOTIFY can tell the
 * nodes) takes effect on both nodes within a second; losing the notification connection falls back to reading the
 * database.
 */
class NotifiedCacheTest extends TwoNodeTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final long PROMPTLY_MILLIS = 1000;

    @Test
    void aRevokedKeyIs401OnEveryNodePromptlyAndOtherKeysStillWork() throws Exception {
        String account = account();
        String revoked = key(account);
        String other = key(account);
        warm(revoked);
        warm(other);
        sql("UPDATE api_keys SET revoked_at = now() WHERE key_hash = ?", ApiKeys.hash(revoked));
        for (EmbeddedServer node : nodes) {
            assertBecomes(401, node, revoked, "/api/v1.0/leads");
            assertEquals(200, get(node, other, "/api/v1.0/leads").statusCode());
        }
    }

    @Test
    void aBlockedAccountIs401OnEveryNodePromptlyAndWorksAgainOnceRestored() throws Exception {
        String account = account();
        String key = key(account);
        warm(key);
        sql("UPDATE accounts SET state = 'BLOCKED' WHERE id = ?", account);
        for (EmbeddedServer node : nodes) {
            assertBecomes(401, node, key, "/api/v1.0/leads");
        }
        sql("UPDATE accounts SET state = 'ACTIVE' WHERE id = ?", account);
        for (EmbeddedServer node : nodes) {
            assertBecomes(200, node, key, "/api/v1.0/leads");
        }
    }

    @Test
    void aRoleTheAccountNoLongerPermitsIs403OnEveryNodePromptly() throws Exception {
        String account = account();
        String key = key(account);
        warm(key);
        List<String> permitted = new ArrayList<>(Roles.ALL);
        permitted.remove(Roles.GET_LEADS);
        try (Connection c = TestStack.get().connect();
             PreparedStatement ps = c.prepareStatement("UPDATE accounts SET permitted_roles = ? WHERE id = ?")) {
            ps.setArray(1, c.createArrayOf("text", permitted.toArray()));
            ps.setString(2, account);
            ps.executeUpdate();
        }
        for (EmbeddedServer node : nodes) {
            assertBecomes(403, node, key, "/api/v1.0/leads");
        }
    }

    @Test
    void aContactBlacklistedOnAnotherConnectionIsRefusedOnEveryNodePromptly() throws Exception {
        String account = account();
        String key = key(account);
        for (EmbeddedServer node : nodes) { // the account's (empty) blacklist is now held by both nodes
            assertEquals(200, post(node, key, "{\"email\":\"first@example.com\"}").statusCode());
        }
        try (Connection c = TestStack.get().connect()) {
            Blacklist.add(c, account, "Listed@Example.com", List.of());
        }
        for (EmbeddedServer node : nodes) {
            assertBecomes(400, () -> post(node, key, "{\"email\":\"listed@example.com\"}").statusCode());
            assertEquals(200, post(node, key, "{\"email\":\"other@example.com\"}").statusCode());
        }
    }

    @Test
    void losingTheNotificationConnectionFallsBackToTheDatabaseAndRecovers() throws Exception {
        String account = account();
        String key = key(account);
        warm(key);
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = 'LISTEN "
                    + NotifiedCache.CHANNEL + "' AND datname = current_database()");
        }
        sql("UPDATE api_keys SET revoked_at = now() WHERE key_hash = ?", ApiKeys.hash(key));
        for (EmbeddedServer node : nodes) {
            assertBecomes(401, node, key, "/api/v1.0/leads");
        }
        long deadline = System.currentTimeMillis() + 10_000;
        for (EmbeddedServer node : nodes) {
            while (!cache(node).listening() && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(cache(node).listening(), "the node listens again");
        }
        warm(key(account)); // and serves from memory again
    }

    /** Requests with the key on both nodes until both answer 200 from memory (the cache's hit count rises). */
    private void warm(String key) throws Exception {
        for (EmbeddedServer node : nodes) {
            NotifiedCache cache = cache(node);
            long deadline = System.currentTimeMillis() + 10_000;
            long before = cache.hits();
            while (cache.hits() == before && System.currentTimeMillis() < deadline) {
                assertEquals(200, get(node, key, "/api/v1.0/leads").statusCode());
            }
            assertTrue(cache.hits() > before, "the key is served from the cache");
        }
    }

    private static void assertBecomes(int status, EmbeddedServer node, String key, String path) throws Exception {
        assertBecomes(status, () -> get(node, key, path).statusCode());
    }

    private interface Call {
        int status() throws Exception;
    }

    /** The call answers {@code status} within {@link #PROMPTLY_MILLIS} and keeps answering it. */
    private static void assertBecomes(int status, Call call) throws Exception {
        long start = System.currentTimeMillis();
        int last;
        while ((last = call.status()) != status && System.currentTimeMillis() - start < PROMPTLY_MILLIS) {
            Thread.sleep(5);
        }
        long took = System.currentTimeMillis() - start;
        assertEquals(status, last, "after " + took + " ms");
        for (int i = 0; i < 3; i++) {
            assertEquals(status, call.status());
        }
    }

    private static NotifiedCache cache(EmbeddedServer node) {
        return node.getApplicationContext().getBean(NotifiedCache.class);
    }

    private static void sql(String sql, String parameter) throws Exception {
        try (Connection c = TestStack.get().connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, parameter);
            assertEquals(1, ps.executeUpdate(), sql);
        }
    }

    private String account() {
        String id = RequestIds.next("acc_");
        directory().createAccount(id, "Cache " + id, null, ZoneId.of("UTC"), "USD");
        return id;
    }

    private String key(String account) {
        String key = ApiKeys.newKey();
        directory().createKey(account, ApiKeys.hash(key), Roles.ALL, false);
        return key;
    }

    private AccountDirectory directory() {
        return nodes.get(0).getApplicationContext().getBean(AccountDirectory.class);
    }

    private static HttpResponse<String> post(EmbeddedServer node, String key, String json) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(node.getURL() + "/api/v1.0/leads")).header("API-Key", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> get(EmbeddedServer node, String key, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(node.getURL() + path)).header("API-Key", key).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
