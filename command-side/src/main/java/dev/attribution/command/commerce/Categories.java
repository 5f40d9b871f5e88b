package dev.attribution.command.commerce;

import dev.attribution.api.RequestIds;
import dev.attribution.command.imports.BatchInsert;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/** Sale categories by name (case-insensitive), created on first use. */
public final class Categories {

    private Categories() {
    }

    /** The id of the category named {@code name}, created when absent; null for a null or blank name. */
    public static String idFor(Connection c, String accountId, String name, Instant now) throws SQLException {
        if (name == null || name.isBlank()) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id FROM sale_categories WHERE account_id = ? AND lower(name) = lower(?)")) {
            ps.setString(1, accountId);
            ps.setString(2, name.trim());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getString(1);
                }
            }
        }
        String id = RequestIds.next("cat_");
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO sale_categories (account_id, id, name, created_at) VALUES (?, ?, ?, ?)")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, name.trim());
            ps.setTimestamp(4, Timestamp.from(now));
            ps.executeUpdate();
        }
        return id;
    }

    public static String nameOf(Connection c, String accountId, String id) throws SQLException {
        if (id == null) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT name FROM sale_categories WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** A category to have (kept when the id exists already). */
    public record Bulk(String accountId, String id, String name, Instant createdAt) {
    }

    /** Inserts categories in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO sale_categories (account_id, id, name, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                rows, r -> new Object[]{r.accountId(), r.id(), r.name(), r.createdAt()});
    }
}
