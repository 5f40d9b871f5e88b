package dev.attribution.query.reports;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/** Every setting of report jobs, each defined once here with its default ({@code attribution.reports.*}). */
@ConfigurationProperties("attribution.reports")
public class ReportSettings {

    /** Threads of this node running report jobs. */
    private int workerThreads = 2;
    /** How long a node holds a job it took; a job whose lease ran out is taken again by another node. */
    private Duration lease = Duration.ofMinutes(1);
    /** How long a finished job's result stays pollable. */
    private Duration retention = Duration.ofHours(24);
    /** Wait before a failed attempt is tried again. */
    private Duration retryDelay = Duration.ofSeconds(5);
    /** How often an idle worker looks for jobs (at least 10 ms). */
    private Duration pollInterval = Duration.ofMillis(200);
    /** Attempts before a job is given up. */
    private int maxAttempts = 3;

    public int getWorkerThreads() { return workerThreads; }
    public void setWorkerThreads(int v) { this.workerThreads = Settings.atLeast("attribution.reports.worker-threads", v, 1); }
    public Duration getLease() { return lease; }
    public void setLease(Duration v) { this.lease = Settings.positive("attribution.reports.lease", v); }
    public Duration getRetention() { return retention; }
    public void setRetention(Duration v) { this.retention = Settings.positive("attribution.reports.retention", v); }
    public Duration getRetryDelay() { return retryDelay; }
    public void setRetryDelay(Duration v) { this.retryDelay = Settings.notNegative("attribution.reports.retry-delay", v); }
    public Duration getPollInterval() { return pollInterval; }
    public void setPollInterval(Duration v) { this.pollInterval = Settings.positive("attribution.reports.poll-interval", v); }
    public int getMaxAttempts() { return maxAttempts; }
    public void setMaxAttempts(int v) { this.maxAttempts = Settings.atLeast("attribution.reports.max-attempts", v, 1); }
}
