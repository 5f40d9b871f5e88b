package dev.attribution.cdc.ingest;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;

/**
 * Checks a Standard Webhooks signature, the scheme Debezium Server's HTTP sink signs with
 * ({@code authentication.type=standard-webhooks}): header {@code webhook-signature} holds space-separated
 * {@code v1,<base64 HMAC-SHA256>} entries over {@code <webhook-id>.<webhook-timestamp>.<body>}, keyed by the bytes of
 * the secret after {@code whsec_}.
 */
final class WebhookSignature {

    private final byte[] key;

    WebhookSignature(String secret) {
        String encoded = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
        this.key = Base64.getDecoder().decode(encoded);
        if (key.length < 24 || key.length > 64) {
            throw new IllegalArgumentException("attribution.cdc.ingest.secret must be whsec_ and the base64 of 24 to 64 bytes");
        }
    }

    /** The {@code v1,…} signature of a post (what Debezium Server sends; tests sign with it). */
    String sign(String id, long timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * True when one of the signatures in {@code header} is this secret's for the post, and the timestamp is within
     * {@code toleranceSeconds} of {@code nowSeconds}.
     */
    boolean verify(String id, String timestamp, String header, byte[] body, long nowSeconds, long toleranceSeconds) {
        if (id == null || timestamp == null || header == null) {
            return false;
        }
        long ts;
        try {
            ts = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return false;
        }
        if (Math.abs(nowSeconds - ts) > toleranceSeconds) {
            return false;
        }
        byte[] expected = sign(id, ts, body).getBytes(StandardCharsets.US_ASCII);
        for (String candidate : header.trim().split(" +")) {
            if (MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII))) {
                return true;
            }
        }
        return false;
    }
}
