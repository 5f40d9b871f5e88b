package dev.attribution.command.requests;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

/** Every setting of the request log, each defined once here with its default ({@code attribution.requests.*}). */
@ConfigurationProperties("attribution.requests")
public class RequestLogSettings {

    /** Threads committing accepted writes to {@code write_requests}, each one batch per transaction. */
    private int committers = 2;
    /** Most accepted writes committed in one transaction. */
    private int acceptBatch = 256;
    /**
     * Most writes this node validates, commits and answers at once; the next is refused with a 503 and
     * {@code Retry-After} ({@link WriteAcceptance}).
     */
    private int maxInFlight = 256;

    public int getCommitters() { return committers; }
    public void setCommitters(int committers) { this.committers = Settings.atLeast("attribution.requests.committers", committers, 1); }
    public int getAcceptBatch() { return acceptBatch; }
    public void setAcceptBatch(int acceptBatch) { this.acceptBatch = Settings.atLeast("attribution.requests.accept-batch", acceptBatch, 1); }
    public int getMaxInFlight() { return maxInFlight; }
    public void setMaxInFlight(int maxInFlight) { this.maxInFlight = Settings.atLeast("attribution.requests.max-in-flight", maxInFlight, 1); }
}
