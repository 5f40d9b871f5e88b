package dev.attribution.api.limits;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

/** Every setting of the rate limits, each defined once here with its default ({@code attribution.rate-limits.*}). */
@ConfigurationProperties("attribution.rate-limits")
public class RateLimitSettings {

    /** The key choosing the limiter ({@code @Requires} of {@link LocalRateLimiter} and {@link PostgresRateLimiter}). */
    public static final String STORE = "attribution.rate-limits.store";
    /** {@link #STORE}'s default. */
    public static final String MEMORY = "memory";

    /** Requests per second of an account whose key sets no limit of its own (spec 7). */
    private int perSecond = 30;
    /** Requests per minute of an account whose key sets no limit of its own (spec 7). */
    private int perMinute = 1000;
    /**
     * Where buckets live: {@code memory} (this node's, {@link LocalRateLimiter}) or {@code postgres} (one budget shared
     * by every node, {@link PostgresRateLimiter}); the two limiters are chosen by this key with {@code @Requires}.
     */
    private String store = MEMORY;

    public int getPerSecond() { return perSecond; }
    public void setPerSecond(int v) { this.perSecond = Settings.atLeast("attribution.rate-limits.per-second", v, 1); }
    public int getPerMinute() { return perMinute; }
    public void setPerMinute(int v) { this.perMinute = Settings.atLeast("attribution.rate-limits.per-minute", v, 1); }
    public String getStore() { return store; }

    public void setStore(String v) {
        if (!MEMORY.equals(v) && !"postgres".equals(v)) {
            throw new IllegalArgumentException(STORE + " must be memory or postgres, not " + v);
        }
        this.store = v;
    }
}
