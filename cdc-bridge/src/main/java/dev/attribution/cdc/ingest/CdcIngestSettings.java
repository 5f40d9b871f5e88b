package dev.attribution.cdc.ingest;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The CDC ingest endpoint ({@code POST /cdc/ingest}) that an external Debezium Server posts change events to
 * ({@code attribution.cdc.ingest.*}, docs/scaling.md "CDC outside the process"). Off unless a secret is set.
 */
@ConfigurationProperties("attribution.cdc.ingest")
public class CdcIngestSettings {

    /** The key of {@link #getSecret()}: the endpoint exists only when it is set ({@code @Requires}). */
    public static final String SECRET = "attribution.cdc.ingest.secret";

    /**
     * The Standard Webhooks secret ({@code whsec_} + base64 of 24 to 64 random bytes) Debezium Server signs each post
     * with ({@code debezium.sink.http.authentication.webhook.secret}); unset, the endpoint does not exist (404).
     */
    private String secret;
    /** How far a post's {@code webhook-timestamp} may be from this node's clock (replayed posts are refused). */
    private long toleranceSeconds = 300;

    public String getSecret() { return secret; }
    public void setSecret(String secret) { this.secret = secret; }
    public long getToleranceSeconds() { return toleranceSeconds; }
    public void setToleranceSeconds(long toleranceSeconds) { this.toleranceSeconds = toleranceSeconds; }
}
