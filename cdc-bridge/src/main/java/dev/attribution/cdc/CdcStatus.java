package dev.attribution.cdc;

import jakarta.inject.Singleton;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the bridge has done so far: state, events applied, the WAL position ClickHouse has caught up to, and the
 * commit-to-ClickHouse delay of the last applied change.
 */
@Singleton
public class CdcStatus {

    /**
     * STANDBY: another node holds the CDC role (the slot's advisory lock); this one takes over when it frees. The
     * others are the active node's (or a bridge started by hand).
     */
    public enum State { STOPPED, STANDBY, STARTING, STREAMING, FAILED }

    private volatile State state = State.STOPPED;
    private volatile String error;
    private volatile String slot;
    private final AtomicLong applied = new AtomicLong();
    private final AtomicLong appliedLsn = new AtomicLong();
    private volatile long lastLagMillis;
    private volatile long lastAppliedAt;

    void state(State state, String error) {
        this.state = state;
        this.error = error;
    }

    void slot(String slot) {
        this.slot = slot;
    }

    /**
     * A batch reached ClickHouse: {@code count} row changes, the newest commit time among them and the WAL position
     * the batch brought the stream to (row changes and heartbeats alike).
     */
    void applied(int count, long newestSourceMillis, long lsn) {
        long now = System.currentTimeMillis();
        if (count > 0) {
            applied.addAndGet(count);
            lastAppliedAt = now;
            if (newestSourceMillis > 0) {
                lastLagMillis = Math.max(0, now - newestSourceMillis);
            }
        }
        appliedLsn.accumulateAndGet(lsn, Math::max);
    }

    /** Whether this node runs the engine (holds the CDC role): every state but STANDBY and STOPPED. */
    public boolean active() {
        return state != State.STANDBY && state != State.STOPPED;
    }

    /** Whether another node holds the CDC role and this one waits to take over. */
    public boolean standby() {
        return state == State.STANDBY;
    }

    public State state() {
        return state;
    }

    public String error() {
        return error;
    }

    /** Replication slot of the running bridge, null before it started. */
    public String slot() {
        return slot;
    }

    public long eventsApplied() {
        return applied.get();
    }

    /** Commit-to-ClickHouse delay of the newest change in the last batch that held changes, in milliseconds. */
    public long lagMillis() {
        return lastLagMillis;
    }

    public long lastAppliedAt() {
        return lastAppliedAt;
    }

    /** WAL position up to which every change of the streamed tables is in ClickHouse (0 before the first batch). */
    public long appliedLsn() {
        return appliedLsn.get();
    }
}
