package dev.attribution.command.requests;

import dev.attribution.api.Settings;
import io.micronaut.context.annotation.ConfigurationProperties;

import java.time.Duration;

/** Every setting of the write workers, each defined once here with its default ({@code attribution.worker.*}). */
@ConfigurationProperties("attribution.worker")
public class WorkerSettings {

    /** Worker threads of this node, each applying one batch per transaction. */
    private int threads = 4;
    /** Most writes of one lane applied in one transaction. */
    private int batchSize = 200;
    /**
     * Most stored payload bytes ({@code pg_column_size}) applied in one transaction past its first write; a larger write
     * (e.g. an order of a few thousand items) is applied alone, in one of a few slots (issue 23 point 1).
     */
    private long batchBytes = 64 * 1024;
    /**
     * Accepted writes per second above which this node's workers stand aside so that accepting keeps the cores
     * (README, "Architecture"); 0 = never.
     */
    private long yieldAbove = 1000;
    /** A worker stands aside only while it caught up with its lanes less than this long ago. */
    private Duration maxYield = Duration.ofSeconds(30);

    public int getThreads() { return threads; }
    public void setThreads(int threads) { this.threads = Settings.atLeast("attribution.worker.threads", threads, 1); }
    public int getBatchSize() { return batchSize; }
    public void setBatchSize(int batchSize) { this.batchSize = Settings.atLeast("attribution.worker.batch-size", batchSize, 1); }
    public long getBatchBytes() { return batchBytes; }
    public void setBatchBytes(long batchBytes) { this.batchBytes = Settings.atLeast("attribution.worker.batch-bytes", batchBytes, 1); }
    public long getYieldAbove() { return yieldAbove; }
    public void setYieldAbove(long yieldAbove) { this.yieldAbove = Settings.atLeast("attribution.worker.yield-above", yieldAbove, 0); }
    public Duration getMaxYield() { return maxYield; }
    public void setMaxYield(Duration maxYield) { this.maxYield = Settings.notNegative("attribution.worker.max-yield", maxYield); }
}
