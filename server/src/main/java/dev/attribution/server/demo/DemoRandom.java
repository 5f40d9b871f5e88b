package dev.attribution.server.demo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Random;

/**
 * The one seeded source of every draw of a demo account, ids included ({@link DemoSeed} for the ad side,
 * {@link DemoLeads} for the leads): the same seed gives the same rows as long as the draws keep their order. Also the
 * small value helpers both sides share.
 */
final class DemoRandom extends Random {

    private final Instant epochFloor;

    /** Ids are never dated before {@code epochFloor} (the first day of the demo). */
    DemoRandom(long seed, Instant epochFloor) {
        super(seed);
        this.epochFloor = epochFloor;
    }

    /** An id in the shape of {@code RequestIds}: the creation time in hex, then 64 seeded random bits. */
    String id(String prefix, Instant created) {
        return prefix + Long.toHexString(max(created, epochFloor).toEpochMilli()) + "-" + String.format("%016x", nextLong());
    }

    /** A number of {@code length} digits (an ad platform's numeric id). */
    String digits(int length) {
        StringBuilder s = new StringBuilder().append(1 + nextInt(9));
        while (s.length() < length) {
            s.append(nextInt(10));
        }
        return s.toString();
    }

    static BigDecimal money(double v) {
        return BigDecimal.valueOf(v).setScale(2, RoundingMode.HALF_UP);
    }

    static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
