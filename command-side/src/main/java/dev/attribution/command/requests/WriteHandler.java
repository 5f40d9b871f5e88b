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

    /** A write that cannot be applied; its message becomes the request's {@code errorMessage}. */
    class WriteFailure extends RuntimeException {
        public WriteFailure(String message) {
            super(message);
        }
    }
}
