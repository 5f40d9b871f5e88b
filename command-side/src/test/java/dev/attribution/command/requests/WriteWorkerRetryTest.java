package dev.attribution.command.requests;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which failures of a write make the worker try its batch again instead of marking the write FAILED. */
class WriteWorkerRetryTest {

    @Test
    void deadlockAndSerializationFailuresAreFoundBehindWrappers() {
        SQLException deadlock = new SQLException("deadlock detected", "40P01");
        assertEquals(deadlock, WriteWorker.transactionRollback(new RuntimeException("handler", deadlock)).orElseThrow());
        SQLException serialization = new SQLException("could not serialize access", "40001");
        assertEquals(serialization, WriteWorker.transactionRollback(
                new IllegalStateException(new RuntimeException(serialization))).orElseThrow());
    }

    @Test
    void otherFailuresAreTheWritesOwn() {
        assertTrue(WriteWorker.transactionRollback(new SQLException("duplicate key", "23505")).isEmpty());
        assertTrue(WriteWorker.transactionRollback(new SQLException("no state")).isEmpty());
        assertTrue(WriteWorker.transactionRollback(new IllegalArgumentException("bad")).isEmpty());
    }
}
