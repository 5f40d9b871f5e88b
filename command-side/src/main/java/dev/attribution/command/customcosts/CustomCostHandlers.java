package dev.attribution.command.customcosts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;

/** Write handlers of custom costs; the result is one custom cost (as {@code GET /custom-costs}), none for a delete. */
final class CustomCostHandlers {

    private CustomCostHandlers() {
    }

    /** CREATE_CUSTOM_COST and UPDATE_CUSTOM_COST: an upsert of the whole record (full replacement). */
    abstract static class Upsert implements WriteHandler {
        private final RecordViews views;
        private final boolean mustExist;

        Upsert(RecordViews views, boolean mustExist) {
            this.views = views;
            this.mustExist = mustExist;
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            String id = p.get("id").asText();
            if (mustExist && !exists(c, accountId, id)) {
                throw new WriteFailure(CustomCostWrites.NOT_FOUND);
            }
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO custom_costs (account_id, id, name, cost, frequency, start_date, end_date, tags, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, id) DO UPDATE SET name = EXCLUDED.name, cost = EXCLUDED.cost,
                      frequency = EXCLUDED.frequency, start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date,
                      tags = EXCLUDED.tags, updated_at = EXCLUDED.updated_at""")) {
                ps.setString(1, accountId);
                ps.setString(2, id);
                ps.setString(3, p.hasNonNull("name") ? p.get("name").asText() : null);
                ps.setBigDecimal(4, p.get("cost").decimalValue());
                ps.setString(5, p.get("frequency").asText());
                ps.setTimestamp(6, Timestamp.valueOf(LocalDateTime.parse(p.get("startDate").asText())));
                ps.setTimestamp(7, p.hasNonNull("endDate") ? Timestamp.valueOf(LocalDateTime.parse(p.get("endDate").asText())) : null);
                String[] tags = new String[p.get("tags").size()];
                for (int i = 0; i < tags.length; i++) {
                    tags[i] = p.get("tags").get(i).asText();
                }
                ps.setArray(8, c.createArrayOf("text", tags));
                ps.setTimestamp(9, Timestamp.from(w.acceptedAt()));
                ps.setTimestamp(10, Timestamp.from(w.acceptedAt()));
                ps.executeUpdate();
            }
            return views.customCost(c, accountId, id).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
        }
    }

    /** Whether the account has the custom cost {@code id} (UPDATE_CUSTOM_COST of an unknown id fails). */
    static boolean exists(Connection c, String accountId, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT EXISTS (SELECT 1 FROM custom_costs WHERE account_id = ? AND id = ?)")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    @Singleton
    static class Create extends Upsert {
        Create(RecordViews views) {
            super(views, false);
        }

        @Override
        public String eventType() {
            return "CREATE_CUSTOM_COST";
        }
    }

    @Singleton
    static class Update extends Upsert {
        Update(RecordViews views) {
            super(views, true);
        }

        @Override
        public String eventType() {
            return "UPDATE_CUSTOM_COST";
        }
    }

    @Singleton
    static class Delete implements WriteHandler {
        @Override
        public String eventType() {
            return "DELETE_CUSTOM_COST";
        }

        @Override
        public JsonNode apply(Connection c, Write w) throws SQLException {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM custom_costs WHERE account_id = ? AND id = ?")) {
                ps.setString(1, w.account().id());
                ps.setString(2, w.payload().get("id").asText());
                if (ps.executeUpdate() == 0) {
                    throw new WriteFailure(CustomCostWrites.NOT_FOUND);
                }
            }
            return null;
        }
    }
}
