package dev.attribution.command.leads;

import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The only writer of {@code lead_ips}: addresses added (to one lead or to many at once), erased. */
@Singleton
public class LeadIps {

    /** The lead's IP addresses. */
    List<String> of(Connection c, String accountId, String leadId) throws SQLException {
        List<String> ips = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT ip FROM lead_ips WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ips.add(rs.getString(1));
                }
            }
        }
        return ips;
    }

    void add(Connection c, String accountId, String leadId, List<String> ips) throws SQLException {
        if (ips.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO lead_ips (account_id, lead_id, ip) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String ip : ips) {
                ps.setString(1, accountId);
                ps.setString(2, leadId);
                ps.setString(3, ip);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** One IP (null: none) to each of many (account, lead) pairs, in one statement. */
    void addMany(Connection c, List<String> accountIds, List<String> leadIds, List<String> ips) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_ips (account_id, lead_id, ip)
                SELECT a, l, i FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(a, l, i, o) WHERE i IS NOT NULL ORDER BY o
                ON CONFLICT DO NOTHING""")) {
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setArray(3, c.createArrayOf("text", ips.toArray()));
            ps.executeUpdate();
        }
    }

    /** The lead's addresses, gone with it ({@code DELETE /leads}, spec 3.2). */
    void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_ips WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /** A lead's address. */
    public record Bulk(String accountId, String leadId, String ip) {
    }

    /** Inserts addresses in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO lead_ips (account_id, lead_id, ip) VALUES (?, ?, ?)", rows,
                r -> new Object[]{r.accountId(), r.leadId(), r.ip()});
    }
}
