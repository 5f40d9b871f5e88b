package dev.attribution.command.customcosts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.customcosts.CustomCostCommands.CreateCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.DeleteCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.UpdateCustomCost;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;

/** The custom cost commands applied; the result is one custom cost (as {@code GET /custom-costs}), none for a delete. */
final class CustomCostHandlers {

    private CustomCostHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateCustomCost> {
        private final CustomCostsTable costs;
        private final RecordViews views;

        Create(CustomCostsTable costs, RecordViews views) {
            this.costs = costs;
            this.views = views;
        }

        @Override
        public Class<CreateCustomCost> commandType() {
            return CreateCustomCost.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateCustomCost create) throws SQLException {
            costs.upsert(c, w.accountId(), create.id(), create.fields(), w.acceptedAt());
            return view(views, c, w, create.id());
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateCustomCost> {
        private final CustomCostsTable costs;
        private final RecordViews views;

        Update(CustomCostsTable costs, RecordViews views) {
            this.costs = costs;
            this.views = views;
        }

        @Override
        public Class<UpdateCustomCost> commandType() {
            return UpdateCustomCost.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateCustomCost update) throws SQLException {
            if (!costs.exists(c, w.accountId(), update.id())) {
                throw new WriteFailure(CustomCostRules.NOT_FOUND);
            }
            costs.upsert(c, w.accountId(), update.id(), update.fields(), w.acceptedAt());
            return view(views, c, w, update.id());
        }
    }

    @Singleton
    static class Delete implements CommandHandler<DeleteCustomCost> {
        private final CustomCostsTable costs;

        Delete(CustomCostsTable costs) {
            this.costs = costs;
        }

        @Override
        public Class<DeleteCustomCost> commandType() {
            return DeleteCustomCost.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteCustomCost delete) throws SQLException {
            if (!costs.delete(c, w.accountId(), delete.id())) {
                throw new WriteFailure(CustomCostRules.NOT_FOUND);
            }
            return null;
        }
    }

    private static JsonNode view(RecordViews views, Connection c, CommandHandler.Applying w, String id) throws SQLException {
        return views.customCost(c, w.accountId(), id).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }
}
