package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 4.0, 7.2.7: opaque, tamper-evident page tokens bound to the account and the query. */
@MicronautTest(transactional = false)
class PageTokensTest extends PlatformTest {

    @Inject
    PageTokens tokens;

    final JsonNode cursor = JsonBody.mapper().createObjectNode().put("id", "ld_1");

    @Test
    void roundTripAndBindings() {
        String token = tokens.issue("acc_a", "q1", cursor);
        assertEquals(cursor, tokens.open(token, "acc_a", "q1", "Invalid pageId"));
        assertInvalid(() -> tokens.open(token, "acc_b", "q1", "Invalid pageId"));
        assertInvalid(() -> tokens.open(token, "acc_a", "q2", "Invalid pageId"));
    }

    @Test
    void restartingEndpointsStartOverWhenAnotherParameterChanged() {
        String token = tokens.issue("acc_a", "q1", cursor);
        assertEquals(Optional.of(cursor), tokens.openOrRestart(token, "acc_a", "q1", "Invalid pageId"));
        assertEquals(Optional.empty(), tokens.openOrRestart(token, "acc_a", "q2", "Invalid pageId"));
        assertInvalid(() -> tokens.openOrRestart(token, "acc_b", "q1", "Invalid pageId"));
        assertInvalid(() -> tokens.openOrRestart(token + "x", "acc_a", "q2", "Invalid pageId"));
    }

    @Test
    void forgedPayloadsAndGarbageAreRefused() {
        String token = tokens.issue("acc_a", "q1", cursor);
        String signature = token.substring(token.indexOf('.'));
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"a\":\"acc_a\",\"q\":\"q1\",\"t\":9999999999999,\"c\":{\"id\":\"ld_9\"}}".getBytes(StandardCharsets.UTF_8));
        assertInvalid(() -> tokens.open(forged + signature, "acc_a", "q1", "Invalid pageId"));
        for (String garbage : new String[]{"", ".", "a.b", "!!!.???", token.replace('.', '_'), "." + token}) {
            assertInvalid(() -> tokens.open(garbage, "acc_a", "q1", "Invalid pageId"));
        }
        assertTrue(token.matches("[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+"), "URL-safe: " + token);
    }

    private static void assertInvalid(org.junit.jupiter.api.function.Executable call) {
        ApiException e = assertThrows(ApiException.class, call);
        assertEquals(400, e.status().getCode());
        assertEquals(java.util.List.of("Invalid pageId"), e.messages());
    }
}
