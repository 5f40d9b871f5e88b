package dev.attribution.command.sources;

import dev.attribution.command.requests.DelegatingWriteHandler;
import jakarta.inject.Singleton;

/** Write handlers of the source writes; the result is one source (as {@code GET /sources}), none for a delete. */
final class SourceHandlers {

    private SourceHandlers() {
    }

    @Singleton
    static class Create extends DelegatingWriteHandler {
        Create(SourceStore store) {
            super("CREATE_SOURCE_LINK", store::create);
        }
    }

    @Singleton
    static class Update extends DelegatingWriteHandler {
        Update(SourceStore store) {
            super("UPDATE_SOURCE_LINK", store::update);
        }
    }

    @Singleton
    static class Delete extends DelegatingWriteHandler {
        Delete(SourceStore store) {
            super("DELETE_SOURCE_LINK", (c, w) -> {
                store.delete(c, w);
                return null;
            });
        }
    }
}
