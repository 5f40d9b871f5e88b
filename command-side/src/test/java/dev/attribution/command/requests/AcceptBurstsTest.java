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
        assertFalse(bursts.yielding(), "no accepts yet");
        accept(bursts, 1000); // 1,000 in one window: ~4,000/s
        Thread.sleep(WINDOW_MILLIS + 20);
        assertTrue(bursts.yielding(), "a burst above 100/s");
        Thread.sleep(WINDOW_MILLIS + 20);
        assertFalse(bursts.yielding(), "no accepts in the last window: the burst is over");
    }

    @Test
    void aRateBelowTheThresholdNeverYields() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100_000, Duration.ofSeconds(30));
        accept(bursts, 1000);
        Thread.sleep(WINDOW_MILLIS + 20);
        assertFalse(bursts.yielding(), "~4,000/s is below 100,000/s");
    }

    @Test
    void zeroNeverYields() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(0, Duration.ofSeconds(30));
        accept(bursts, 100_000);
        Thread.sleep(WINDOW_MILLIS + 20);
        assertFalse(bursts.yielding());
    }

    @Test
    void aBurstLongerThanMaxYieldIsAppliedBesideTheAccepts() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofMillis(3 * WINDOW_MILLIS));
        boolean yieldedAtFirst = false;
        boolean yieldedAtEnd = true;
        long end = System.nanoTime() + 8 * AcceptBursts.WINDOW_NANOS;
        while (System.nanoTime() < end) {
            accept(bursts, 50); // 50 per 10 ms: 5,000/s, all along
            boolean y = bursts.yielding();
            yieldedAtFirst |= y;
            yieldedAtEnd = y;
            Thread.sleep(10);
        }
        assertTrue(yieldedAtFirst, "the burst's start yields");
        assertFalse(yieldedAtEnd, "after max-yield the workers apply although the accepts go on");
    }

    @Test
    void awaitCalmReturnsOnceTheBurstIsOver() throws InterruptedException {
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(30));
        accept(bursts, 1000);
        Thread.sleep(WINDOW_MILLIS + 20);
        assertTrue(bursts.yielding());
        long t0 = System.nanoTime();
        bursts.awaitCalm();
        long waited = (System.nanoTime() - t0) / 1_000_000;
        assertFalse(bursts.yielding());
        assertTrue(waited >= WINDOW_MILLIS / 2 && waited < 10 * WINDOW_MILLIS, "waited " + waited + " ms");
    }

    private static void accept(AcceptBursts bursts, int n) {
        for (int i = 0; i < n; i++) {
            bursts.accepted();
        }
    }
}
