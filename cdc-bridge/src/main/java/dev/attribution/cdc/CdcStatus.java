package dev.attribution.cdc;

import jakarta.inject.Singleton;

import java.util.concurrent.atomic.AtomicLong;

/** What the bridge has done so far: state, events applied, and the lag of the last applied change. */
@Singleton
public class CdcStatus {

    public enum State { STOPPED, STARTING, STREAMING, FAILED }

    private volatile State state = State.STOPPED;
    private volatile String error;
    private final AtomicLong applied = new AtomicLong();
    private volatile long lastLagMillis;
    private volatile long lastAppliedAt;

    void state(State state, String error) {
        this.state = state;
        this.error = error;
    }

    void applied(int count, long newestSourceMillis) {
        long now = System.currentTimeMillis();
        applied.addAndGet(count);
        lastAppliedAt = now;
        if (newestSourceMillis > 0) {
            lastLagMillis = Math.max(0, now - newestSourceMillis);
        }
    }

    public State state() {
        return state;
    }

    public String error() {
        return error;
    }

    public long eventsApplied() {
        return applied.get();
    }

    /** Commit-to-ClickHouse delay of the newest change in the last applied batch, in milliseconds. */
    public long lagMillis() {
        return lastLagMillis;
    }

    public long lastAppliedAt() {
        return lastAppliedAt;
    }
}
