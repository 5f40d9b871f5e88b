package dev.attribution.api;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Opaque identifiers: a time-ordered prefix (milliseconds) followed by random bits, so ids sort by
 * creation and cannot be guessed. Used for request ids and the ids of created resources.
 */
public final class RequestIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private RequestIds() {
    }

    /** A new id such as {@code 0193a8f2c4d1-9f0c2a7b1e3d5f60}. */
    public static String next() {
        byte[] random = new byte[8];
        RANDOM.nextBytes(random);
        return Long.toHexString(System.currentTimeMillis()) + "-" + HexFormat.of().formatHex(random);
    }

    /** A new id with a resource prefix, e.g. {@code ld_…} for a lead. */
    public static String next(String prefix) {
        return prefix + next();
    }
}
