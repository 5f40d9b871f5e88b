package dev.attribution.api;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DatabaseReadsTest {

    @Test
    void workWithoutReadsGivesItsResult() {
        assertEquals(Optional.of("done"), DatabaseReads.without(() -> "done"));
    }

    @Test
    void aReadEndsTheAttemptBeforeIt() {
        AtomicBoolean read = new AtomicBoolean();
        Optional<String> r = DatabaseReads.without(() -> {
            DatabaseReads.beforeRead();
            read.set(true);
            return "read";
        });
        assertEquals(Optional.empty(), r);
        assertFalse(read.get(), "stopped before the read");
        DatabaseReads.beforeRead(); // allowed again after the attempt
    }

    @Test
    void otherExceptionsPropagateAndReadsAreAllowedAfter() {
        ApiException refused = ApiException.badRequest("no");
        assertEquals(refused, assertThrows(ApiException.class, () -> DatabaseReads.without(() -> {
            throw refused;
        })));
        DatabaseReads.beforeRead();
    }

    @Test
    void aNestedReadEndsTheOuterAttempt() {
        assertEquals(Optional.empty(), DatabaseReads.without(() -> DatabaseReads.without(() -> {
            DatabaseReads.beforeRead();
            return "read";
        }).orElse("inner gave up")));
        DatabaseReads.beforeRead();
    }
}
