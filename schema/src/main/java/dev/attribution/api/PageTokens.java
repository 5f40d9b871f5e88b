package dev.attribution.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Opaque, tamper-evident paging tokens (spec 4.0): the cursor of the next page, bound to the account and to the
 * query that produced it, signed with HMAC-SHA256 under a key every node shares (table {@code server_secrets}).
 * A token that was altered, belongs to another account or another query, or has expired is refused with 400.
 */
@Singleton
public class PageTokens {

    public static final String INVALID = "Invalid pageId";
    private static final long TTL_MILLIS = 24L * 3600 * 1000;

    private final JdbcOperations jdbc;
    private volatile byte[] key;

    public PageTokens(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** Issues a token holding {@code cursor} for this account and query fingerprint. */
    @Transactional(readOnly = true)
    public String issue(String accountId, String queryFingerprint, JsonNode cursor) {
        ObjectNode body = JsonBody.mapper().createObjectNode();
        body.put("a", accountId);
        body.put("q", queryFingerprint);
        body.put("t", System.currentTimeMillis());
        body.set("c", cursor);
        byte[] payload = body.toString().getBytes(StandardCharsets.UTF_8);
        return b64(payload) + "." + b64(sign(payload));
    }

    /** The cursor inside a token, or 400 {@code message} when the token is not valid for this account and query. */
    @Transactional(readOnly = true)
    public JsonNode open(String token, String accountId, String queryFingerprint, String message) {
        try {
            int dot = token.indexOf('.');
            if (dot <= 0) {
                throw ApiException.badRequest(message);
            }
            byte[] payload = Base64.getUrlDecoder().decode(token.substring(0, dot));
            byte[] signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
            if (!MessageDigest.isEqual(signature, sign(payload))) {
                throw ApiException.badRequest(message);
            }
            JsonNode body = JsonBody.mapper().readTree(payload);
            if (!accountId.equals(body.path("a").asText()) || !queryFingerprint.equals(body.path("q").asText())
                    || System.currentTimeMillis() - body.path("t").asLong() > TTL_MILLIS) {
                throw ApiException.badRequest(message);
            }
            return body.get("c");
        } catch (ApiException e) {
            throw e;
        } catch (Exception e) {
            throw ApiException.badRequest(message);
        }
    }

    private byte[] sign(byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key(), "HmacSHA256"));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private byte[] key() {
        byte[] k = key;
        if (k == null) {
            k = jdbc.prepareStatement("SELECT value FROM server_secrets WHERE name = 'page-token-key'", ps -> {
                try (var rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getString(1).getBytes(StandardCharsets.UTF_8);
                }
            });
            key = k;
        }
        return k;
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
