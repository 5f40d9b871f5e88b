package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.CommandJson;
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

    /**
     * The write as the worker hands it over: the account, the validated payload and when it was accepted. Its command
     * record is read from the payload once ({@link #command}) and kept, however many times the batch asks for it
     * (lock-ahead, grouping, apply: issue 23 point 3).
     */
    record Write(String requestId, Account account, JsonNode payload, Instant acceptedAt, Parsed parsed) {

        public Write(String requestId, Account account, JsonNode payload, Instant acceptedAt) {
            this(requestId, account, payload, acceptedAt, new Parsed());
        }

        /** The payload read as {@code type} ({@link CommandJson#read}), once per write. */
        public <C extends Record> C command(Class<C> type) {
            return parsed.of(payload, type);
        }
    }

    /** The command record read from a write's payload, kept once read (one type per write). */
    final class Parsed {
        private Record command;

        <C extends Record> C of(JsonNode payload, Class<C> type) {
            if (!type.isInstance(command)) {
                command = CommandJson.read(payload, type);
            }
            return type.cast(command);
        }
    }

    String eventType();

    JsonNode apply(Connection connection, Write write) throws SQLException;

    /**
     * The names of the transaction-scoped advisory locks ({@code pg_advisory_xact_lock(hashtext(name))}) applying these
     * writes (this handler's writes of one batch) will wait for, e.g. the products an order names that do not exist
     * yet. {@link WriteWorker} takes those of a whole batch first, in one order, so two batches that need the same
     * locks wait for each other instead of deadlocking (issue 23 point 3). A write whose payload cannot be read takes
     * none (it fails when applied).
     */
    default java.util.List<String> advisoryLocks(Connection connection, java.util.List<Write> writes) throws SQLException {
        return java.util.List.of();
    }

    /** A write that cannot be applied; its message becomes the request's {@code errorMessage}. */
    class WriteFailure extends RuntimeException {
        public WriteFailure(String message) {
            super(message);
        }
    }
}
