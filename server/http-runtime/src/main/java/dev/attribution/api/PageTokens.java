package dev.attribution.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import javax.sql.DataSource;
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

    private final DataSource dataSource;
    private volatile byte[] key;

    public PageTokens(DataSource dataSource) {
        // read once, outside any request transaction: the pool itself, not the transaction-bound proxy
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** Issues a token holding {@code cursor} for this account and query fingerprint. */
    @io.micronaut.transaction.annotation.Transactional(readOnly = true)
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
    @io.micronaut.transaction.annotation.Transactional(readOnly = true)
    public JsonNode open(String token, String accountId, String queryFingerprint, String message) {
        JsonNode body = verified(token, accountId, message);
        if (!queryFingerprint.equals(body.path("q").asText())) {
            throw ApiException.badRequest(message);
        }
        return body.get("c");
    }

    /**
     * For endpoints where changing any other parameter resets paging (spec 4.0): the cursor when the token belongs
     * to this query, empty (start again from the first page) when it was issued for another query of the same
     * account; still 400 {@code message} when the token was altered, expired or belongs to another account.
     */
    public java.util.Optional<JsonNode> openOrRestart(String token, String accountId, String queryFingerprint, String message) {
        JsonNode body = verified(token, accountId, message);
        return queryFingerprint.equals(body.path("q").asText()) ? java.util.Optional.of(body.get("c")) : java.util.Optional.empty();
    }

    /** A token's signed body, checked for signature, account and age. */
    private JsonNode verified(String token, String accountId, String message) {
        try {
            int dot = token.indexOf('.');
            if (dot <= 0) {
                throw ApiException.badRequest(message);
            }
            byte[] payload = Base64.getUrlDecoder().decode(token.substring(0, dot));
            byte[] signature = Base64.getUrlDecoder().decode(token.substring(dot + 1));
            // only the token as issued: a variant decoding to the same bytes (a last character differing in the
            // unused low bits, padding) is an altered token too
            if (!MessageDigest.isEqual(signature, sign(payload)) || !token.equals(b64(payload) + "." + b64(signature))) {
                throw ApiException.badRequest(message);
            }
            JsonNode body = JsonBody.mapper().readTree(payload);
            if (!accountId.equals(body.path("a").asText()) || System.currentTimeMillis() - body.path("t").asLong() > TTL_MILLIS) {
                throw ApiException.badRequest(message);
            }
            return body;
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
            try (var connection = dataSource.getConnection();
                 var ps = connection.prepareStatement("SELECT value FROM server_secrets WHERE name = 'page-token-key'");
                 var rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("server_secrets has no page-token-key");
                }
                k = rs.getString(1).getBytes(StandardCharsets.UTF_8);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException("cannot read the page-token key", e);
            }
            key = k;
        }
        return k;
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
