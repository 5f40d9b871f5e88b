package dev.attribution.command.webhooks;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/** Every setting of webhook delivery, each defined once here with its default ({@code attribution.webhooks.*}). */
@ConfigurationProperties("attribution.webhooks")
public class WebhookSettings {

    /** How long a delivery is retried before it is given up (FAILED). */
    private Duration retryPeriod = Duration.ofHours(24);
    /** Wait before the first retry; doubled after each failure up to {@link #maxBackoff}. */
    private Duration initialBackoff = Duration.ofSeconds(5);
    /** Longest wait between two attempts. */
    private Duration maxBackoff = Duration.ofHours(1);
    /** Connect and answer timeout of one attempt. */
    private Duration timeout = Duration.ofSeconds(10);
    /** How often the delivery loop looks for due deliveries (at least 10 ms). */
    private Duration pollInterval = Duration.ofMillis(500);
    /** Accept loopback target URLs (development and tests only; the SSRF check refuses them otherwise). */
    private boolean allowLoopback = false;

    public Duration getRetryPeriod() { return retryPeriod; }
    public void setRetryPeriod(Duration v) { this.retryPeriod = Settings.notNegative("attribution.webhooks.retry-period", v); }
    public Duration getInitialBackoff() { return initialBackoff; }
    public void setInitialBackoff(Duration v) { this.initialBackoff = Settings.positive("attribution.webhooks.initial-backoff", v); }
    public Duration getMaxBackoff() { return maxBackoff; }
    public void setMaxBackoff(Duration v) { this.maxBackoff = Settings.positive("attribution.webhooks.max-backoff", v); }
    public Duration getTimeout() { return timeout; }
    public void setTimeout(Duration v) { this.timeout = Settings.positive("attribution.webhooks.timeout", v); }
    public Duration getPollInterval() { return pollInterval; }
    public void setPollInterval(Duration v) { this.pollInterval = Settings.positive("attribution.webhooks.poll-interval", v); }
    public boolean isAllowLoopback() { return allowLoopback; }
    public void setAllowLoopback(boolean allowLoopback) { this.allowLoopback = allowLoopback; }
}
