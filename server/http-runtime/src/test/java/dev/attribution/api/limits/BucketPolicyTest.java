package dev.attribution.api.limits;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The windows of spec 8.1 on a clock moved by hand: no more than the figure passes within one window. */
class BucketPolicyTest {

    /** A clock the test moves. */
    static final class HandClock implements TimeMeter {
        long nanos;

        @Override
        public long currentTimeNanos() {
            return nanos;
        }

        @Override
        public boolean isWallClockBased() {
            return false;
        }

        void advanceMillis(long ms) {
            nanos += TimeUnit.MILLISECONDS.toNanos(ms);
        }
    }

    private static Bucket bucket(HandClock clock, int perSecond, int perMinute) {
        var builder = Bucket.builder().withCustomTimePrecision(clock);
        BucketPolicy.bandwidths(perSecond, perMinute).forEach(builder::addLimit);
        return builder.build();
    }

    private static int consume(Bucket b, int attempts) {
        int passed = 0;
        for (int i = 0; i < attempts; i++) {
            passed += b.tryConsume(1) ? 1 : 0;
        }
        return passed;
    }

    @Test
    void thirtyPerSecondHoldsThroughoutTheSecond() {
        HandClock clock = new HandClock();
        Bucket b = bucket(clock, 30, 1000);
        assertEquals(30, consume(b, 60), "a burst of 60 at once");
        // spread over the rest of the second: a greedy refill would have given a token every 33 ms (29 more)
        int later = 0;
        for (int ms = 0; ms < 990; ms += 30) {
            clock.advanceMillis(30);
            later += consume(b, 2);
        }
        assertEquals(0, later, "nothing more within the same second");
        clock.advanceMillis(10);
        assertEquals(30, consume(b, 60), "the next second has its own 30");
    }

    @Test
    void theMinuteWindowHoldsAcrossSeconds() {
        HandClock clock = new HandClock();
        Bucket b = bucket(clock, 30, 100);
        int passed = 0;
        for (int s = 0; s < 59; s++) {
            passed += consume(b, 30);
            clock.advanceMillis(1000);
        }
        assertEquals(100, passed, "100 a minute however the seconds allow more");
        assertFalse(b.tryConsume(1));
        clock.advanceMillis(1000);
        assertTrue(b.tryConsume(1), "a new minute");
    }

    @Test
    void aRejectedProbeSaysWhenTheWindowReopens() {
        HandClock clock = new HandClock();
        Bucket b = bucket(clock, 3, 1000);
        consume(b, 3);
        clock.advanceMillis(400);
        RateLimiter.Decision d = BucketPolicy.decide(b.tryConsumeAndReturnRemaining(1), 3, 1000);
        assertFalse(d.allowed());
        assertEquals(1, d.retryAfterSeconds(), "600 ms to the window's end, rounded up to a second");
    }
}
