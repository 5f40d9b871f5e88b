package dev.attribution.api;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Work tried first where the database must not be read (the Netty event loop), and done again on the blocking pool
 * when it turns out to need a read. Every uncached read on such a path calls {@link #beforeRead()} first
 * ({@link NotifiedCache} on a miss, the blacklist's per-write query, the lead-stage lookup of {@code PUT /leads}):
 * inside {@link #without} that ends the attempt before anything was read or written.
 */
public final class DatabaseReads {

    private static final ThreadLocal<Boolean> FORBIDDEN = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private DatabaseReads() {
    }

    /** Thrown by {@link #beforeRead()} inside {@link #without}; carries no stack trace. */
    private static final class NeedsDatabase extends RuntimeException {
        private static final NeedsDatabase INSTANCE = new NeedsDatabase();

        private NeedsDatabase() {
            super(null, null, false, false);
        }
    }

    /**
     * {@code work}'s result (not null), or empty when it needed a database read (it stopped at that read: work calls
     * {@link #beforeRead()} before any read and has no effect before its last step). Other exceptions propagate.
     */
    public static <T> Optional<T> without(Supplier<T> work) {
        if (FORBIDDEN.get()) {
            return Optional.of(work.get());
        }
        FORBIDDEN.set(Boolean.TRUE);
        try {
            return Optional.of(work.get());
        } catch (NeedsDatabase e) {
            return Optional.empty();
        } finally {
            FORBIDDEN.set(Boolean.FALSE);
        }
    }

    /** Called before an uncached database read: ends the attempt of {@link #without}, else does nothing. */
    public static void beforeRead() {
        if (FORBIDDEN.get()) {
            throw NeedsDatabase.INSTANCE;
        }
    }
}
