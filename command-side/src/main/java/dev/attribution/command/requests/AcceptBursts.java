package dev.attribution.command.requests;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;

/**
 * Ingest first: while this node accepts writes faster than its workers could apply them, the workers stand aside so
 * that accepting keeps the cores (an accept costs ~0.25 ms of CPU, applying a new lead ~1.5 ms, docs/BENCHMARKS.md).
 * Accepted writes are durable in the request log, so a burst is taken at full speed and applied right after it, in
 * order. A burst is an accept rate above {@code attribution.worker.yield-above} per second (measured over the last
 * {@link #WINDOW_NANOS}); workers wait at most {@code attribution.worker.max-yield} from the burst's start, after which
 * load that lasts is overload, not a burst, and they apply at full speed beside the accepts (as with
 * {@code yield-above: 0}, which never yields). Below the threshold — e.g. 500 writes/s — workers never wait.
 * Per node: each node measures its own accepts and paces its own workers.
 */
@Singleton
public class AcceptBursts {

    static final long WINDOW_NANOS = 250_000_000L;
    private static final long PAUSE_MILLIS = 20;

    private final long yieldAbove;
    private final long maxYieldNanos;
    private final LongAdder accepted = new LongAdder();
    private long windowStart = System.nanoTime();
    private long windowCount;
    private volatile double rate;
    private volatile long burstSince; // 0 = no burst

    public AcceptBursts(@Value("${attribution.worker.yield-above:2000}") long yieldAbove,
                        @Value("${attribution.worker.max-yield:30s}") Duration maxYield) {
        this.yieldAbove = yieldAbove;
        this.maxYieldNanos = maxYield.toNanos();
    }

    /** Called once per accepted write. */
    public void accepted() {
        accepted.increment();
    }

    /** Accepts per second over the last completed window. */
    double rate() {
        sample(System.nanoTime());
        return rate;
    }

    private synchronized void sample(long now) {
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS) {
            return;
        }
        long total = accepted.sum();
        rate = (total - windowCount) * 1e9 / elapsed;
        windowCount = total;
        windowStart = now;
        if (rate > yieldAbove && yieldAbove > 0) {
            if (burstSince == 0) {
                burstSince = now;
            }
        } else {
            burstSince = 0;
        }
    }

    /**
     * Whether a worker should wait before its next batch: a burst is on and has not yet lasted
     * {@code max-yield}.
     */
    boolean yielding() {
        if (yieldAbove <= 0) {
            return false;
        }
        long now = System.nanoTime();
        sample(now);
        long since = burstSince;
        return since != 0 && now - since < maxYieldNanos;
    }

    /** Waits while {@link #yielding()}; returns at once when no burst is on. */
    void awaitCalm() throws InterruptedException {
        while (yielding()) {
            Thread.sleep(PAUSE_MILLIS);
        }
    }
}
