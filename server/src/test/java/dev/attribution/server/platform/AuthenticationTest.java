package dev.attribution.server.platform;

import dev.attribution.api.auth.ApiKeys;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Spec 5.1, 5.2, 7.1: the API-Key header, 401 for every way a key or its account can be unusable. */
@MicronautTest(transactional = false)
class AuthenticationTest extends PlatformTest {

    static final String UNAUTHORIZED = "Unauthorized: invalid or missing Api-Key";

    @Test
    void absentKeyIs401WithoutRateLimitHeaders() {
        for (String path : new String[]{"/api/v1.0/leads", "/api/v1.0/requests/x", "/api/v1.0/no-such-route"}) {
            Response r = get(null, path);
            assertError(r, 401, UNAUTHORIZED);
            assertNoRateLimitHeaders(r);
        }
        Response post = post(null, "/api/v1.0/leads", lead("a@example.com"));
        assertError(post, 401, UNAUTHORIZED);
        assertNoRateLimitHeaders(post);
    }

    @Test
    void blankKeyIs401() {
        assertError(sendWithHeaders("GET", "/api/v1.0/leads", null, Map.of("API-Key", " ")), 401, UNAUTHORIZED);
    }

    @Test
    void wrongKeyIs401WithoutRateLimitHeaders() {
        Response r = get(ApiKeys.newKey(), "/api/v1.0/leads");
        assertError(r, 401, UNAUTHORIZED);
        assertNoRateLimitHeaders(r);
    }

    @Test
    void keyIsReadFromTheApiKeyHeaderOnly() {
        Acct a = account();
        assertError(sendWithHeaders("GET", "/api/v1.0/leads", null, Map.of("Authorization", "Bearer " + a.key())), 401);
        assertError(get(null, "/api/v1.0/leads?API-Key=" + enc(a.key())), 401);
        assertEquals(200, sendWithHeaders("GET", "/api/v1.0/leads", null, Map.of("api-key", a.key())).status(),
                "header names are case-insensitive");
    }

    @Test
    void revokedKeyIs401AndOtherKeysOfTheAccountStillWork() {
        Acct a = account();
        String second = key(a.id(), dev.attribution.api.auth.Roles.ALL, false);
        assertEquals(200, get(a.key(), "/api/v1.0/leads").status());
        directory.revokeKey(ApiKeys.hash(a.key()));
        Response r = get(a.key(), "/api/v1.0/leads");
        assertError(r, 401, UNAUTHORIZED);
        assertNoRateLimitHeaders(r);
        assertEquals(200, get(second, "/api/v1.0/leads").status());
    }

    @ParameterizedTest
    @ValueSource(strings = {"BLOCKED", "PAYMENT_PENDING", "PENDING_DELETION"})
    void inactiveAccountIs401OnEveryEndpointUntilRestored(String state) {
        Acct a = account();
        String requestId = post(a.key(), "/api/v1.0/leads", lead("x@example.com")).body().get("request_id").asText();
        directory.setState(a.id(), state);
        for (Response r : new Response[]{
                get(a.key(), "/api/v1.0/leads"),
                post(a.key(), "/api/v1.0/leads", lead("y@example.com")),
                get(a.key(), "/api/v1.0/requests/" + requestId),
                get(a.key(), "/api/v1.0/leads/aggregation?attribute=TAG")}) {
            assertError(r, 401, UNAUTHORIZED);
            assertNoRateLimitHeaders(r);
        }
        directory.setState(a.id(), "ACTIVE");
        assertEquals(200, get(a.key(), "/api/v1.0/leads").status());
    }
}
