package dev.attribution.command.sources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;

/** Write handlers of the source writes; the result is one source (as {@code GET /sources}), none for a delete. */
final class SourceHandlers {

    private SourceHandlers() {
    }

    @Singleton
    static class Create implements WriteHandler {
        private final SourceStore store;

        Create(SourceStore store) {
            this.store = store;
        }

        @Override
        public String eventType() {
            return "CREATE_SOURCE_LINK";
        }

        @Override
        public JsonNode apply(Connection connection, Write write) throws SQLException {
            return store.create(connection, write);
        }
    }

    @Singleton
    static class Update implements WriteHandler {
        private final SourceStore store;

        Update(SourceStore store) {
            this.store = store;
        }

        @Override
        public String eventType() {
            return "UPDATE_SOURCE_LINK";
        }

        @Override
        public JsonNode apply(Connection connection, Write write) throws SQLException {
            return store.update(connection, write);
        }
    }

    @Singleton
    static class Delete implements WriteHandler {
        private final SourceStore store;

        Delete(SourceStore store) {
            this.store = store;
        }

        @Override
        public String eventType() {
            return "DELETE_SOURCE_LINK";
        }

        @Override
        public JsonNode apply(Connection connection, Write write) throws SQLException {
            store.delete(connection, write);
            return null;
        }
    }
}
