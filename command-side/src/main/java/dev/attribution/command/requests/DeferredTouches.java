package dev.attribution.command.requests;

/**
 * One refresh of {@code conversion_touches} per apply transaction instead of one per statement (issue 23 point 3;
 * V102): after {@link #DEFER} the triggers on clicks, sales and calls queue the leads they touch, and {@link #FLUSH}
 * refreshes them all; it must run before the transaction commits. A rollback (of the transaction or of a write's
 * savepoint) takes the queued leads of what it undoes with it. Both are statements without parameters, sent in the
 * same round trip as the batch's first and last statements ({@link GroupApply#lockAhead},
 * {@link WriteRequestLog#finish}): on a busy machine each round trip of a batch adds to every write's latency.
 */
final class DeferredTouches {

    /** From this statement to the end of the transaction, the triggers queue the leads they touch. */
    static final String DEFER = "SET LOCAL attribution.touches_deferred = on";

    /** Refreshes the queued leads' conversion touches, in one call (returns how many leads). */
    static final String FLUSH = "SELECT conversion_touches_flush()";

    private DeferredTouches() {
    }
}
