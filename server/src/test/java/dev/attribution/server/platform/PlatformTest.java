package dev.attribution.server.platform;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Helpers shared by the platform tests: accounts whose id is known, extra keys, envelope assertions. */
abstract class PlatformTest extends ApiTest {

    /** An account id and one of its keys. */
    record Acct(String id, String key) {
    }

    Acct account(List<String> roles) {
        String id = RequestIds.next("acc_");
        directory.createAccount(id, "Test " + id, null, ZoneId.of("America/New_York"), "USD");
        return new Acct(id, key(id, roles, false));
    }

    Acct account() {
        return account(Roles.ALL);
    }

    /** Another key on an existing account. */
    String key(String accountId, List<String> roles, boolean readOnly) {
        String key = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(key), roles, readOnly);
        return key;
    }

    /** The single number {@code sql} (with {@code ?} bound to {@code args} in order) selects from PostgreSQL. */
    long count(String sql, String... args) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    Response getAs(Acct caller, String target, String path) {
        return sendWithHeaders("GET", path, null, Map.of("API-Key", caller.key(), "Accessible-Account-Id", target));
    }

    Response postAs(Acct caller, String target, String path, String json) {
        return sendWithHeaders("POST", path, json, Map.of("API-Key", caller.key(), "Accessible-Account-Id", target));
    }

    /** Asserts the error envelope of spec 7.1 with this status and exactly these messages. */
    static void assertError(Response r, int status, String... messages) {
        assertEquals(status, r.status(), r.raw());
        assertNotNull(r.body(), "JSON body expected: " + r.raw());
        assertEquals("ERROR", r.body().path("result").asText(), r.raw());
        assertTrue(r.body().path("message").isArray(), r.raw());
        if (messages.length > 0) {
            assertEquals(String.join(" | ", messages), r.message(), r.raw());
        }
    }

    static void assertNoRateLimitHeaders(Response r) {
        for (String h : List.of("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After")) {
            assertEquals(null, r.header(h), h + " on a " + r.status());
        }
    }

    static String lead(String email) {
        return "{\"email\":\"" + email + "\"}";
    }
}
