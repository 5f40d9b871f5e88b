package dev.attribution.command.customcosts;

import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;

/** The only writer of the {@code custom_costs} table, and the lookups custom cost writes make. */
@Singleton
public class CustomCostsTable {

    /** Whether the account has the custom cost {@code id} (UPDATE_CUSTOM_COST of an unknown id fails). */
    boolean exists(Connection c, String accountId, String id) throws SQLException {
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

    /** The whole cost written (created, or replaced in full). */
    void upsert(Connection c, String accountId, String id, CustomCostFields cost, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO custom_costs (account_id, id, name, cost, frequency, start_date, end_date, tags, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id, id) DO UPDATE SET name = EXCLUDED.name, cost = EXCLUDED.cost,
                  frequency = EXCLUDED.frequency, start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date,
                  tags = EXCLUDED.tags, updated_at = EXCLUDED.updated_at""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, cost.name());
            ps.setBigDecimal(4, cost.cost());
            ps.setString(5, cost.frequency().name());
            ps.setTimestamp(6, Timestamp.valueOf(LocalDateTime.parse(cost.startDate())));
            ps.setTimestamp(7, cost.endDate() != null ? Timestamp.valueOf(LocalDateTime.parse(cost.endDate())) : null);
            ps.setArray(8, c.createArrayOf("text", cost.tags().toArray()));
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setTimestamp(10, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /** Returns whether there was such a cost. */
    boolean delete(Connection c, String accountId, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM custom_costs WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            return ps.executeUpdate() > 0;
        }
    }

    /**
     * A source's tag changed: custom costs name sources by tag, so they stay that source's cost (docs/attribution-models.md,
     * "Custom costs").
     */
    public void renameSourceTag(Connection c, String accountId, String oldTag, String newTag) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE custom_costs SET tags = ARRAY(SELECT CASE WHEN lower(t) = lower(?) THEN ? ELSE t END
                                                     FROM unnest(tags) WITH ORDINALITY AS u(t, n) ORDER BY n)
                WHERE account_id = ? AND EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE lower(t) = lower(?))""")) {
            ps.setString(1, oldTag);
            ps.setString(2, newTag);
            ps.setString(3, accountId);
            ps.setString(4, oldTag);
            ps.executeUpdate();
        }
    }
}
