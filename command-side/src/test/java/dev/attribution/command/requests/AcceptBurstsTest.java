package dev.attribution.command.requests;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ingest first: when workers stand aside (a burst of accepts) and when they do not. The time is a test clock that
 * moves only when told, so nothing here depends on how fast the machine is.
 */
class AcceptBurstsTest {

    private static final Duration WINDOW = Duration.ofNanos(AcceptBursts.WINDOW_NANOS);

    /** Nanoseconds that pass only by {@link #advance} (and, with {@code tick}, by that much on every read). */
    private static final class TestClock implements LongSupplier {
        private final long tick;
        private long now = 1_000_000_000L;

        TestClock(Duration tick) {
            this.tick = tick.toNanos();
        }

        @Override
        public synchronized long getAsLong() {
            now += tick;
            return now;
        }

        synchronized void advance(Duration d) {
            now += d.toNanos();
        }
    }

    @Test
    void workersYieldDuringABurstAndResumeWhenItEnds() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(30), clock);
        long caughtUp = clock.getAsLong();
        assertFalse(bursts.yielding(caughtUp), "no accepts yet");
        burstOverOneWindow(bursts, clock, 1000);
        assertEquals(4000.0, bursts.rate(), 1e-9, "1,000 accepts in 250 ms");
        assertTrue(bursts.yielding(caughtUp), "4,000/s is a burst above 100/s");
        clock.advance(WINDOW);
        assertFalse(bursts.yielding(caughtUp), "no accepts in the last window: the burst is over");
    }

    @Test
    void aRateAtOrBelowTheThresholdNeverYields() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(4000, Duration.ofSeconds(30), clock);
        burstOverOneWindow(bursts, clock, 1000);
        assertFalse(bursts.burst(), "4,000/s is not above 4,000/s");
        burstOverOneWindow(bursts, clock, 1001);
        assertTrue(bursts.burst(), "4,004/s is");
    }

    @Test
    void zeroNeverYields() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(0, Duration.ofSeconds(30), clock);
        burstOverOneWindow(bursts, clock, 1000);
        assertFalse(bursts.yielding(clock.getAsLong()));
    }

    @Test
    void aWorkerBehindForLongerThanMaxYieldAppliesBesideTheAccepts() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(5), clock);
        burstOverOneWindow(bursts, clock, 1000);
        long now = clock.getAsLong();
        assertTrue(bursts.yielding(now - Duration.ofSeconds(4).toNanos()), "caught up 4 s ago: still within max-yield");
        assertFalse(bursts.yielding(now - Duration.ofSeconds(6).toNanos()), "not caught up for 6 s: no write waits longer");
    }

    @Test
    void awaitCalmReturnsOnceTheBurstIsOverAndAtOnceWithoutOne() throws InterruptedException {
        // every read of the clock moves it 5 ms: the window closes with no accepts after ~50 reads
        TestClock clock = new TestClock(Duration.ofMillis(5));
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(30), clock);
        for (int i = 0; i < 1000; i++) {
            bursts.accepted();
        }
        clock.advance(WINDOW);
        long caughtUp = clock.getAsLong();
        assertTrue(bursts.yielding(caughtUp), "1,000 accepts in one window: a burst");
        bursts.awaitCalm(caughtUp);
        assertFalse(bursts.yielding(caughtUp), "awaitCalm returned: the burst is over");
        assertEquals(0, bursts.standingAside());
        bursts.awaitCalm(caughtUp); // returns at once: no burst
        assertEquals(0.0, bursts.rate(), 1e-9);
    }

    /** {@code accepts} accepts, then exactly one window passes. */
    private static void burstOverOneWindow(AcceptBursts bursts, TestClock clock, int accepts) {
        bursts.rate(); // open a window now
        for (int i = 0; i < accepts; i++) {
            bursts.accepted();
        }
        clock.advance(WINDOW);
    }
}
