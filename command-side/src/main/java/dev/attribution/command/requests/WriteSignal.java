package dev.attribution.command.requests;

import jakarta.inject.Singleton;

/**
 * Wakes this node's write workers when a write was accepted here. Workers of other nodes notice new writes by
 * polling ({@link WriteWorker#IDLE_POLL_MILLIS}). A PostgreSQL NOTIFY would reach them sooner, but a transaction
 * that notifies takes a cluster-wide lock through its commit, fsync included: it serialized every accept (about
 * 100 accepts/s on this machine's disk), where plain commits share their fsyncs.
 */
@Singleton
public class WriteSignal {

    private final Object lock = new Object();
    private long generation;

    /** Called after an accepted write committed. */
    public void wake() {
        synchronized (lock) {
            generation++;
            lock.notifyAll();
        }
    }

    /** A value to pass to {@link #awaitAfter}; read it before looking for work, so no wake is missed. */
    public long generation() {
        synchronized (lock) {
            return generation;
        }
    }

    /** Waits until a wake after {@code seen}, or {@code millis}; true when woken. */
    public boolean awaitAfter(long seen, long millis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        synchronized (lock) {
            while (generation == seen) {
                long left = deadline - System.currentTimeMillis();
                if (left <= 0) {
                    return false;
                }
                lock.wait(left);
            }
            return true;
        }
    }
}
