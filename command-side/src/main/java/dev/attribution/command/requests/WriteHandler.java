package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Applies one kind of accepted write ({@code eventType} of spec 2.20) inside the worker's transaction and returns
 * the request-status {@code result}: the written resource in the shape of its GET, or null for none.
 * A {@link WriteFailure} marks the request FAILED with its message; nothing it wrote is kept.
 */
public interface WriteHandler {

    /** The write as the worker hands it over: the account, the validated payload and when it was accepted. */
    record Write(String requestId, Account account, JsonNode payload, Instant acceptedAt) {
    }

    String eventType();

    JsonNode apply(Connection connection, Write write) throws SQLException;

    /**
     * The names of the transaction-scoped advisory locks ({@code pg_advisory_xact_lock(hashtext(name))}) applying this
     * write will wait for, e.g. the products an order names. {@link WriteWorker} takes those of a whole batch first, in
     * one order, so two batches that need the same locks wait for each other instead of deadlocking (issue 23 point 3).
     */
    default java.util.List<String> advisoryLocks(Write write) {
        return java.util.List.of();
    }

    /** A write that cannot be applied; its message becomes the request's {@code errorMessage}. */
    class WriteFailure extends RuntimeException {
        public WriteFailure(String message) {
            super(message);
        }
    }
}
