package dev.attribution.api;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Opaque identifiers: a time-ordered prefix (milliseconds) followed by random bits, so ids sort by
 * creation and cannot be guessed. Used for request ids and the ids of created resources.
 */
public final class RequestIds {

    /**
     * One generator per thread: the default {@code NativePRNG} instances all share one locked state, which the
     * request threads and the workers contended for (JFR, 2026-11-24). DRBG instances are independent, each seeded
     * from the system's entropy.
     */
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(RequestIds::generator);

    private RequestIds() {
    }

    /** A new id such as {@code 0193a8f2c4d1-9f0c2a7b1e3d5f60}. */
    public static String next() {
        byte[] random = new byte[8];
        RANDOM.get().nextBytes(random);
        return Long.toHexString(System.currentTimeMillis()) + "-" + HexFormat.of().formatHex(random);
    }

    private static SecureRandom generator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    /** A new id with a resource prefix, e.g. {@code ld_…} for a lead. */
    public static String next(String prefix) {
        return prefix + next();
    }
}
