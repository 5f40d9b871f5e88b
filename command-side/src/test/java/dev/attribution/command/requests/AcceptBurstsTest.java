package dev.attribution.command.requests;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ingest first: when workers stand aside (a burst of accepts) and when they do not. */
class AcceptBurstsTest {

    private static final long WINDOW_MILLIS = AcceptBursts.WINDOW_NANOS / 1_000_000;

    @Test
    void workersYieldDuringABurstAndResumeWhenItEnds() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(30));
        long caughtUp = System.nanoTime();
        assertFalse(bursts.yielding(caughtUp), "no accepts yet");
        burstOverOneWindow(bursts);
        assertTrue(bursts.yielding(caughtUp), "~4,000/s is a burst above 100/s");
        Thread.sleep(WINDOW_MILLIS + 20);
        assertFalse(bursts.yielding(caughtUp), "no accepts in the last window: the burst is over");
    }

    @Test
    void aRateBelowTheThresholdNeverYields() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100_000, Duration.ofSeconds(30));
        burstOverOneWindow(bursts);
        assertFalse(bursts.yielding(System.nanoTime()), "~4,000/s is below 100,000/s");
    }

    @Test
    void zeroNeverYields() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(0, Duration.ofSeconds(30));
        burstOverOneWindow(bursts);
        assertFalse(bursts.yielding(System.nanoTime()));
    }

    @Test
    void aWorkerBehindForLongerThanMaxYieldAppliesBesideTheAccepts() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(5));
        burstOverOneWindow(bursts);
        long now = System.nanoTime();
        assertTrue(bursts.yielding(now - Duration.ofSeconds(4).toNanos()), "caught up 4 s ago: still within max-yield");
        assertFalse(bursts.yielding(now - Duration.ofSeconds(6).toNanos()), "not caught up for 6 s: no write waits longer");
    }

    @Test
    void awaitCalmReturnsOnceTheBurstIsOver() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(30));
        burstOverOneWindow(bursts);
        long caughtUp = System.nanoTime();
        assertTrue(bursts.yielding(caughtUp));
        long t0 = System.nanoTime();
        bursts.awaitCalm(caughtUp);
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(bursts.yielding(caughtUp));
        assertTrue(waited >= WINDOW_MILLIS / 2 && waited < 10 * WINDOW_MILLIS, "waited " + waited + " ms");
    }

    /** 1,000 accepts, then the window closes: ~4,000 accepts/s measured. */
    private static void burstOverOneWindow(AcceptBursts bursts) throws InterruptedException {
        for (int i = 0; i < 1000; i++) {
            bursts.accepted();
        }
        Thread.sleep(WINDOW_MILLIS + 20);
    }
}
