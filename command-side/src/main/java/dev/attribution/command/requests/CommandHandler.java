package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.CommandJson;
import dev.attribution.api.auth.Account;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Applies one command record ({@code CreateCall}, {@code UpdateProduct}…) inside the worker's transaction and returns
 * the request-status {@code result} (the written resource in the shape of its GET, or null for none). A
 * {@link WriteHandler.WriteFailure} marks the request FAILED with its message.
 * <p>
 * The bridge to {@link WriteWorker} is this interface itself: a command handler <em>is</em> a {@link WriteHandler}
 * whose event type comes from {@link CommandTypes} and whose payload is read back as {@code C} ({@link CommandJson});
 * the worker finds it among its handlers like any other and needs no change.
 */
public interface CommandHandler<C extends Record> extends WriteHandler {

    /** The request being applied, without its payload: who sent it, its id and when it was accepted. */
    record Applying(String requestId, Account account, Instant acceptedAt) {

        public String accountId() {
            return account.id();
        }
    }

    Class<C> commandType();

    JsonNode handle(Connection c, Applying write, C command) throws SQLException;

    @Override
    default String eventType() {
        return CommandTypes.eventType(commandType());
    }

    @Override
    default JsonNode apply(Connection c, Write w) throws SQLException {
        C command = w.command(commandType());
        return handle(c, new Applying(w.requestId(), w.account(), w.acceptedAt()), command);
    }
}
