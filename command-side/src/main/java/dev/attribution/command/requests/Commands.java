package dev.attribution.command.requests;

import dev.attribution.api.CommandJson;
import jakarta.inject.Singleton;

import java.util.concurrent.CompletableFuture;

/**
 * Hands a validated command record to the request log: stored as the record ({@link CommandJson#tree}) under its
 * event type ({@link CommandTypes}), applied later by its {@link CommandHandler}.
 */
@Singleton
public class Commands {

    private final WriteRequestLog log;

    public Commands(WriteRequestLog log) {
        this.log = log;
    }

    /** Queued; the future completes with the request id once durable ({@link WriteRequestLog#submit}). */
    public CompletableFuture<String> submit(String accountId, String laneKey, Record command) {
        return log.submit(accountId, CommandTypes.eventType(command.getClass()), laneKey, CommandJson.tree(command));
    }

    /** Durable when it returns the request id ({@link WriteRequestLog#accept}). */
    public String accept(String accountId, String laneKey, Record command) {
        return log.accept(accountId, CommandTypes.eventType(command.getClass()), laneKey, CommandJson.tree(command));
    }
}
