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
    void aBurstLastingMaxYieldIsSustainedLoadAndWorkersApplyBesideItUntilACalm() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(5), clock);
        // 4,000 accepts/s for 20 s; the worker catches up with its share before every window (a claim found nothing)
        int yielded = 0;
        for (int w = 0; w < 80; w++) {
            burstOverOneWindow(bursts, clock, 1000);
            boolean yielding = bursts.yielding(clock.getAsLong());
            assertTrue(bursts.burst(), "window " + w + " is a burst");
            if (w < 19) {
                assertTrue(yielding, "window " + w + ": the burst began " + (w + 1) * 250 + " ms ago, within max-yield");
            } else {
                assertFalse(yielding, "window " + w + ": the burst has lasted max-yield: applied beside the accepts");
            }
            yielded += yielding ? 1 : 0;
        }
        assertEquals(19, yielded, "stood aside for the first 5 s of 20 only");
        // a dip shorter than a calm second does not end the burst
        clock.advance(WINDOW.multipliedBy(2));
        assertFalse(bursts.yielding(clock.getAsLong()), "no accepts for 500 ms: no burst now");
        burstOverOneWindow(bursts, clock, 1000);
        assertFalse(bursts.yielding(clock.getAsLong()), "500 ms of calm is not a new burst: still applied beside");
        // a calm second ends it: the next burst is absorbed again
        clock.advance(Duration.ofNanos(AcceptBursts.CALM_NANOS));
        assertFalse(bursts.burst(), "a calm second");
        burstOverOneWindow(bursts, clock, 1000);
        assertTrue(bursts.yielding(clock.getAsLong()), "a new burst after a calm second: the workers stand aside again");
    }

    @Test
    void aWorkerThatNeverCatchesUpStopsStandingAsideAfterMaxYieldOfANewBurst() {
        TestClock clock = new TestClock(Duration.ZERO);
        AcceptBursts bursts = new AcceptBursts(100, Duration.ofSeconds(5), clock);
        long caughtUp = clock.getAsLong();
        clock.advance(Duration.ofSeconds(4));
        burstOverOneWindow(bursts, clock, 1000);
        assertTrue(bursts.yielding(caughtUp), "caught up 4.25 s ago, the burst 250 ms old");
        clock.advance(Duration.ofSeconds(1));
        burstOverOneWindow(bursts, clock, 1000);
        assertFalse(bursts.yielding(caughtUp), "caught up 5.5 s ago: its writes wait no longer, whatever the burst's age");
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
