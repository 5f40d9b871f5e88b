package dev.attribution.command.leads;

import dev.attribution.api.RequestIds;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Writes to the lead tables of V3, on the worker's connection and transaction. */
@Singleton
class LeadStore {

    /** The lead written and whether it was new. */
    record Upsert(String id, boolean created) {
    }

    Optional<String> findByPhone(Connection c, String accountId, String phone) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT l.email FROM lead_phones p JOIN leads l ON l.account_id = p.account_id AND l.id = p.lead_id
                WHERE p.account_id = ? AND p.phone = ? AND NOT l.erased ORDER BY l.created_at LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, phone);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        }
    }

    /**
     * Creates the lead or updates names on the existing one. Consent: a new lead without one is UNSPECIFIED, an
     * existing lead keeps its value unless one is sent (spec 3.2).
     */
    Upsert upsertByEmail(Connection c, String accountId, String email, String firstName, String lastName,
                         String consent, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE leads SET first_name = COALESCE(?, first_name), last_name = COALESCE(?, last_name),
                       ad_consent = COALESCE(?, ad_consent), updated_at = ?
                WHERE account_id = ? AND lower(email) = lower(?) AND NOT erased RETURNING id""")) {
            ps.setString(1, firstName);
            ps.setString(2, lastName);
            ps.setString(3, consent);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setString(5, accountId);
            ps.setString(6, email);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new Upsert(rs.getString(1), false);
                }
            }
        }
        String id = RequestIds.next("ld_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO leads (account_id, id, email, first_name, last_name, ad_consent, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, COALESCE(?, 'UNSPECIFIED'), ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, email);
            ps.setString(4, firstName);
            ps.setString(5, lastName);
            ps.setString(6, consent);
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.executeUpdate();
        }
        return new Upsert(id, true);
    }

    /** {@code POST /leads}: the numbers sent replace the stored ones; none sent deletes them. */
    void replacePhones(Connection c, String accountId, String leadId, List<String> phones) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_phones WHERE account_id = ? AND lead_id = ? AND NOT (phone = ANY(?))")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setArray(3, c.createArrayOf("text", phones.toArray()));
            ps.executeUpdate();
        }
        insertAll(c, "INSERT INTO lead_phones (account_id, lead_id, phone) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", accountId, leadId, phones);
    }

    void addIps(Connection c, String accountId, String leadId, List<String> ips) throws SQLException {
        insertAll(c, "INSERT INTO lead_ips (account_id, lead_id, ip) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", accountId, leadId, ips);
    }

    /** Adds tags; a tag already held keeps its assignment date. */
    void addTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String tag : tags) {
                ps.setString(1, accountId);
                ps.setString(2, leadId);
                ps.setString(3, tag);
                ps.setTimestamp(4, Timestamp.from(assignedAt));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    void setStage(Connection c, String accountId, String leadId, String stage, Instant date) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leads SET stage_name = ?, stage_date = ? WHERE account_id = ? AND id = ?")) {
            ps.setString(1, stage);
            ps.setTimestamp(2, Timestamp.from(date));
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
    }

    private static void insertAll(Connection c, String sql, String accountId, String leadId, List<String> values) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (String v : values) {
                ps.setString(1, accountId);
                ps.setString(2, leadId);
                ps.setString(3, v);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
