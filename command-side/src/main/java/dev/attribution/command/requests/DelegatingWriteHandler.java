package dev.attribution.command.requests;

import com.fasterxml.jackson.databind.JsonNode;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A write handler that only names its event type and hands the write to one method of the feature's store, e.g.
 * {@code Create(SourceStore store) { super("CREATE_SOURCE_LINK", store::create); }}.
 */
public abstract class DelegatingWriteHandler implements WriteHandler {

    /** What applying the write does; returns the request-status result, or null for none. */
    @FunctionalInterface
    public interface Apply {
        JsonNode apply(Connection connection, Write write) throws SQLException;
    }

    private final String eventType;
    private final Apply apply;

    protected DelegatingWriteHandler(String eventType, Apply apply) {
        this.eventType = eventType;
        this.apply = apply;
    }

    @Override
    public final String eventType() {
        return eventType;
    }

    @Override
    public final JsonNode apply(Connection connection, Write write) throws SQLException {
        return apply.apply(connection, write);
    }
}
