package dev.attribution.api;

import io.micronaut.context.annotation.ConfigurationProperties;

/** The settings of {@link NotifiedCache} ({@code attribution.cache.*}), each defined once here with its default. */
@ConfigurationProperties("attribution.cache")
public class CacheSettings {

    /** Off: every lookup reads PostgreSQL. */
    private boolean enabled = true;
    /** An entry is read again after this long even without a change notice (a missed notice heals by then). */
    private long maxAgeMs = 60_000;

    public boolean isEnabled() { return enabled; }
    public void setEnabled(boolean enabled) { this.enabled = enabled; }
    public long getMaxAgeMs() { return maxAgeMs; }
    public void setMaxAgeMs(long maxAgeMs) { this.maxAgeMs = Settings.atLeast("attribution.cache.max-age-ms", maxAgeMs, 0); }
}
