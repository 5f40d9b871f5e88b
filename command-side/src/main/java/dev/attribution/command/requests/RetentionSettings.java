package dev.attribution.command.requests;

import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/**
 * How long the request log and the outbox keep their rows ({@code attribution.retention.*}), each setting defined once
 * here with its default; how often the purge runs is {@code attribution.retention.interval} (default 10m, on
 * {@link LogRetention#purge}). README "What is kept how long" and docs/clickhouse-schema.md say the same.
 */
@ConfigurationProperties("attribution.retention")
public class RetentionSettings {

    /**
     * Applied or failed requests older than this are deleted from {@code write_requests}: their status stops being
     * pollable ({@code GET /requests/{id}} then answers 404) and their Idempotency-Key is free again. PENDING requests
     * are never purged.
     */
    private Duration requests = Duration.ofDays(14);
    /**
     * Outbox events older than this, fanned out and without a delivery still pending, are deleted from
     * {@code domain_events} with their delivery records. Opt-in events stay: they are the lead's journey (spec 2.17).
     */
    private Duration events = Duration.ofDays(14);
    /** Rows deleted per statement: each batch is its own short transaction, so accepts and workers never wait long. */
    private int batchSize = 2000;

    public Duration getRequests() { return requests; }
    public void setRequests(Duration requests) { this.requests = requests; }
    public Duration getEvents() { return events; }
    public void setEvents(Duration events) { this.events = events; }
    public int getBatchSize() { return batchSize; }
    public void setBatchSize(int batchSize) { this.batchSize = Math.max(1, batchSize); }
}
