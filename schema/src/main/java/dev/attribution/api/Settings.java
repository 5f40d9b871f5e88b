package dev.attribution.api;

import java.time.Duration;

/**
 * The checks of the settings classes ({@code WorkerSettings}, {@code WebhookSettings}…): a value out of range stops the
 * node at start-up with a message naming the key.
 */
public final class Settings {

    private Settings() {
    }

    public static int atLeast(String key, int value, int min) {
        return (int) atLeast(key, (long) value, min);
    }

    public static long atLeast(String key, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(key + " must be at least " + min + ", not " + value);
        }
        return value;
    }

    public static Duration notNegative(String key, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(key + " must be a duration of 0 or more, not " + value);
        }
        return value;
    }

    public static Duration positive(String key, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(key + " must be a positive duration, not " + value);
        }
        return value;
    }
}
