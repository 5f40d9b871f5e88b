package dev.attribution.command.sources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.clicks.ClicksTable;
import dev.attribution.command.customcosts.CustomCostsTable;
import dev.attribution.command.leads.LeadTags;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.sources.SourceCommands.CreateSource;
import dev.attribution.command.sources.SourceCommands.DeleteSource;
import dev.attribution.command.sources.SourceCommands.UpdateSource;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;

/** The source commands applied: CREATE/UPDATE/DELETE_SOURCE_LINK; the result is the source as {@code GET /sources}. */
final class SourceHandlers {

    private SourceHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateSource> {
        private final SourcesTable sources;
        private final AdHierarchy hierarchy;
        private final RecordViews views;

        Create(SourcesTable sources, AdHierarchy hierarchy, RecordViews views) {
            this.sources = sources;
            this.hierarchy = hierarchy;
            this.views = views;
        }

        @Override
        public Class<CreateSource> commandType() {
            return CreateSource.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateSource s) throws SQLException {
            String id = sources.insert(c, w.accountId(), s, w.acceptedAt());
            hierarchy.registerSource(c, w.accountId(), s.integrationType() == null ? "" : s.integrationType().name(),
                    orEmpty(s.adSourceId()), orEmpty(s.accountId()), orEmpty(s.campaignId()), s.name());
            return view(views, c, w.accountId(), id);
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateSource> {
        private final SourcesTable sources;
        private final ClicksTable clicks;
        private final CustomCostsTable costs;
        private final RecordViews views;

        Update(SourcesTable sources, ClicksTable clicks, CustomCostsTable costs, RecordViews views) {
            this.sources = sources;
            this.clicks = clicks;
            this.costs = costs;
            this.views = views;
        }

        @Override
        public Class<UpdateSource> commandType() {
            return UpdateSource.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateSource u) throws SQLException {
            String accountId = w.accountId();
            if (u.tag() != null && sources.tagTakenByOther(c, accountId, u.tag(), u.id())) {
                throw new WriteFailure(SourceRules.tagTaken(u.tag()));
            }
            SourcesTable.Current before = sources.lock(c, accountId, u.id()).orElse(null);
            if (!sources.update(c, accountId, u, w.acceptedAt())) {
                throw new WriteFailure(SourceRules.NOT_FOUND);
            }
            if (before != null) {
                String newTag = u.tag() != null ? u.tag() : before.tag();
                Boolean organic = u.isOrganic() != null && u.isOrganic() != before.organic() ? u.isOrganic() : null;
                reattribute(c, accountId, before.tag(), newTag, organic);
            }
            return view(views, c, accountId, u.id());
        }

        /**
         * Re-attribution after {@code PUT /sources/{tag}} (spec 4.8): the source's past clicks carry its new tag and
         * organic flag, and its leads' {@code @} tags and the custom costs naming it follow a tag change, in this
         * write's transaction; the CDC bridge then carries the changed clicks to ClickHouse, where every report and
         * aggregation picks them up. Nothing happens when neither the tag nor the organic flag changed.
         */
        private void reattribute(Connection c, String accountId, String oldTag, String newTag, Boolean organic)
                throws SQLException {
            boolean renamed = !oldTag.equals(newTag);
            if (!renamed && organic == null) {
                return;
            }
            clicks.retagSource(c, accountId, oldTag, newTag, organic);
            if (renamed) {
                LeadTags.renameTag(c, accountId, oldTag, newTag); // a lead holding both tags keeps the one it has
                costs.renameSourceTag(c, accountId, oldTag, newTag);
            }
        }
    }

    @Singleton
    static class Delete implements CommandHandler<DeleteSource> {
        private final SourcesTable sources;

        Delete(SourcesTable sources) {
            this.sources = sources;
        }

        @Override
        public Class<DeleteSource> commandType() {
            return DeleteSource.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteSource d) throws SQLException {
            sources.delete(c, w.accountId(), d.id(), w.acceptedAt());
            return null;
        }
    }

    private static JsonNode view(RecordViews views, Connection c, String accountId, String id) {
        return views.source(c, accountId, id).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
