package dev.attribution.command.requests;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Ingest first: while this node accepts writes faster than its workers could apply them, the workers stand aside so
 * that accepting keeps the cores (an accept costs ~0.25 ms of CPU, applying a new lead ~1.5 ms, docs/BENCHMARKS.md).
 * Accepted writes are durable in the request log, so a burst is taken at full speed and applied right after it, in
 * order. A burst is an accept rate above {@code attribution.worker.yield-above} per second (measured over the last
 * {@link #WINDOW_NANOS}); 0 never yields. Below the threshold — e.g. 500 writes/s — workers never wait.
 * <p>
 * Bounded twice by {@code attribution.worker.max-yield}: (1) a worker stands aside only while it has caught up with
 * the pending writes (a claim found nothing to apply) within the last max-yield, so no write waits longer than that
 * for a burst; (2) a burst that has lasted max-yield is sustained load, not a burst: the workers then apply at full
 * speed beside the accepts, and stand aside again only in a new burst, once the accept rate has stayed at or below
 * {@code yield-above} for {@link #CALM_NANOS}. (2) keeps a sustained load from being applied in a saw-tooth (stand
 * aside max-yield, catch up, stand aside again); (1) keeps a train of bursts with short calms between them from
 * starving the backlog.
 * Per node: each node measures its own accepts and paces its own workers.
 */
@Singleton
public class AcceptBursts {

    static final long WINDOW_NANOS = 250_000_000L;
    /** How long the accept rate stays at or below the threshold before a burst is over (a new one may yield again). */
    static final long CALM_NANOS = 1_000_000_000L;
    private static final long PAUSE_MILLIS = 20;

    private final long yieldAbove;
    private final long maxYieldNanos;
    private final LongSupplier clock;
    private final LongAdder accepted = new LongAdder();
    private final AtomicInteger standingAside = new AtomicInteger();
    private long windowStart;
    private long windowCount;
    private volatile double rate;
    /** When the current burst began ({@link #clock} time), or {@link #CALM} while none is on. */
    private volatile long burstSince = CALM;
    private long lastAbove;
    private static final long CALM = Long.MIN_VALUE;

    @Inject
    public AcceptBursts(WorkerSettings settings) {
        this(settings.getYieldAbove(), settings.getMaxYield());
    }

    /** A counter standing aside above {@code yieldAbove} writes/s, for at most {@code maxYield} after catching up. */
    public AcceptBursts(long yieldAbove, Duration maxYield) {
        this(yieldAbove, maxYield, System::nanoTime);
    }

    /** As above, reading the time (nanoseconds, as {@link System#nanoTime()}) from {@code clock}. */
    AcceptBursts(long yieldAbove, Duration maxYield, LongSupplier clock) {
        this.yieldAbove = yieldAbove;
        this.maxYieldNanos = maxYield.toNanos();
        this.clock = clock;
        this.windowStart = clock.getAsLong();
    }

    /** Called once per accepted write. */
    public void accepted() {
        accepted.increment();
    }

    /** Called once per commit of the request log, with the writes it accepted. */
    public void accepted(int count) {
        accepted.add(count);
    }

    /** Accepts per second on this node over the last completed window (Prometheus {@code writes_accepted_per_second}). */
    public double rate() {
        sample(clock.getAsLong());
        return rate;
    }

    /** Whether a burst is on: workers that caught up within max-yield stand aside (Prometheus {@code writes_burst}). */
    public boolean burst() {
        return yieldAbove > 0 && rate() > yieldAbove;
    }

    private synchronized void sample(long now) {
        long elapsed = now - windowStart;
        if (elapsed < WINDOW_NANOS) {
            return;
        }
        long total = accepted.sum();
        rate = (total - windowCount) * 1e9 / elapsed;
        if (yieldAbove > 0 && rate > yieldAbove) {
            if (burstSince == CALM) {
                burstSince = windowStart;
            }
            lastAbove = now;
        } else if (burstSince != CALM && now - lastAbove >= CALM_NANOS) {
            burstSince = CALM;
        }
        windowCount = total;
        windowStart = now;
    }

    /**
     * Whether a worker that last caught up with the pending writes at {@code caughtUpAt} ({@link System#nanoTime()}) should
     * wait before its next batch: a burst is on, it began less than {@code max-yield} ago, and the worker caught up less
     * than {@code max-yield} ago.
     */
    boolean yielding(long caughtUpAt) {
        if (!burst()) {
            return false;
        }
        long now = clock.getAsLong();
        long since = burstSince;
        return now - caughtUpAt < maxYieldNanos && since != CALM && now - since < maxYieldNanos;
    }

    /** Waits while {@link #yielding}; returns at once when no burst is on. */
    void awaitCalm(long caughtUpAt) throws InterruptedException {
        if (!yielding(caughtUpAt)) {
            return;
        }
        standingAside.incrementAndGet();
        try {
            while (yielding(caughtUpAt)) {
                Thread.sleep(PAUSE_MILLIS);
            }
        } finally {
            standingAside.decrementAndGet();
        }
    }

    /** Worker threads of this node standing aside right now (Prometheus {@code write_workers_standing_aside}). */
    public int standingAside() {
        return standingAside.get();
    }
}
