package dev.attribution.command.calls;

import dev.attribution.api.RequestIds;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The only writer of the {@code calls} table (every INSERT, UPDATE and DELETE on it, the lead erasure's included),
 * and the lookups the call writes make.
 */
@Singleton
public class CallsTable {

    /** A live call found by its externalId, locked for this transaction. */
    record Existing(String id, String leadId) {
    }

    Existing lockByExternalId(Connection c, String accountId, String externalId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, lead_id FROM calls WHERE account_id = ? AND external_id = ? AND NOT deleted FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, externalId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Existing(rs.getString(1), rs.getString(2)) : null;
            }
        }
    }

    /** A new call; returns its id. */
    String insert(Connection c, String accountId, CreateCall call, String leadId, Instant date, Instant now) throws SQLException {
        String id = RequestIds.next("cll_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO calls (account_id, id, external_id, name, tag, lead_id, qualified, state, qualification_name,
                    first_call, call_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, false, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, call.externalId());
            ps.setString(4, call.name());
            ps.setString(5, callTag(c, accountId, call.name()));
            ps.setString(6, leadId);
            ps.setBoolean(7, CreateCall.qualified(call.state(), call.qualified(), true));
            ps.setString(8, name(call.state()));
            ps.setString(9, call.qualification());
            ps.setTimestamp(10, Timestamp.from(date));
            ps.setTimestamp(11, Timestamp.from(now));
            ps.setTimestamp(12, Timestamp.from(now));
            ps.executeUpdate();
        }
        return id;
    }

    /** The call of an existing externalId, written again: state and qualification kept when not sent. */
    void rewrite(Connection c, String accountId, String id, CreateCall call, String leadId, Instant date, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE calls SET name = ?, tag = ?, lead_id = ?, call_date = ?, state = COALESCE(?, state),
                    qualified = CASE WHEN ?::boolean IS NULL THEN qualified ELSE ?::boolean END,
                    qualification_old_name = CASE WHEN ?::text IS NULL OR ?::text IS NOT DISTINCT FROM qualification_name
                        THEN qualification_old_name ELSE qualification_name END,
                    qualification_name = COALESCE(?, qualification_name), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            Boolean q = call.state() != null || call.qualified() != null ? CreateCall.qualified(call.state(), call.qualified(), true) : null;
            ps.setString(1, call.name());
            ps.setString(2, callTag(c, accountId, call.name()));
            ps.setString(3, leadId);
            ps.setTimestamp(4, Timestamp.from(date));
            ps.setString(5, name(call.state()));
            ps.setObject(6, q);
            ps.setObject(7, q);
            ps.setString(8, call.qualification());
            ps.setString(9, call.qualification());
            ps.setString(10, call.qualification());
            ps.setTimestamp(11, Timestamp.from(now));
            ps.setString(12, accountId);
            ps.setString(13, id);
            ps.executeUpdate();
        }
    }

    /** {@code PUT /calls}: the live calls named; returns their ids (none: not found). */
    List<String> update(Connection c, String accountId, UpdateCalls u, Instant now) throws SQLException {
        Boolean q = u.state() != null || u.qualified() != null ? CreateCall.qualified(u.state(), u.qualified(), true) : null;
        List<String> ids = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE calls SET name = ?, tag = ?, state = COALESCE(?, state),
                    qualified = CASE WHEN ?::boolean IS NULL THEN qualified ELSE ?::boolean END,
                    qualification_old_name = CASE WHEN ?::text IS NULL OR ?::text IS NOT DISTINCT FROM qualification_name
                        THEN qualification_old_name ELSE qualification_name END,
                    qualification_name = COALESCE(?, qualification_name), updated_at = ?
                WHERE account_id = ? AND NOT deleted""" + (u.byExternalId() ? " AND external_id" : " AND id") + " = ANY(?) RETURNING id")) {
            ps.setString(1, u.name());
            ps.setString(2, callTag(c, accountId, u.name()));
            ps.setString(3, name(u.state()));
            ps.setObject(4, q);
            ps.setObject(5, q);
            ps.setString(6, u.qualification());
            ps.setString(7, u.qualification());
            ps.setString(8, u.qualification());
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setString(10, accountId);
            ps.setArray(11, c.createArrayOf("text", u.keys().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }

    /** Soft delete; returns the call's lead, or null when there is no such live call. */
    String delete(Connection c, String accountId, String id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE calls SET deleted = true, updated_at = ? WHERE account_id = ? AND id = ? AND NOT deleted RETURNING lead_id")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The lead's calls, gone with it ({@code DELETE /leads}, spec 3.2). */
    public void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM calls WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /**
     * Flags each lead's first call (spec 2.16 {@code firstSale} of a CALL conversion): the live call with the earliest
     * date, ties by id, whatever order the calls were written in; every other call of the lead is not first. Run
     * after each write that adds, moves or deletes a call, so a call written later with an earlier date takes the flag.
     */
    void firstCalls(Connection c, String accountId, List<String> leadIds) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE calls k SET first_call = (k.id = f.id)
                FROM (SELECT DISTINCT ON (lead_id) lead_id, id FROM calls WHERE account_id = ? AND lead_id = ANY(?) AND NOT deleted
                      ORDER BY lead_id, call_date, id) f
                WHERE k.account_id = ? AND k.lead_id = f.lead_id AND NOT k.deleted AND k.first_call <> (k.id = f.id)""")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setString(3, accountId);
            ps.executeUpdate();
        }
    }

    /**
     * A call's product tag (what {@code GET /calls?productTags=} matches): the tag of the account's call product of the
     * same name (case-insensitive), else the tag a product of that name would get.
     */
    static String callTag(Connection c, String accountId, String name) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT tag FROM products WHERE account_id = ? AND NOT deleted AND call_product AND lower(name) = lower(?)
                ORDER BY created_at, id LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, name);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : ProductCatalog.deriveTag(name);
            }
        }
    }

    private static String name(CreateCall.State state) {
        return state == null ? null : state.name();
    }

    /** A call written whole, its id and first-call flag given (the demo seed's). */
    public record Bulk(String accountId, String id, String externalId, String name, String leadId, boolean qualified,
                       String state, boolean firstCall, Instant callDate, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts calls in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO calls (account_id, id, external_id, name, lead_id, qualified, state, first_call, call_date,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.externalId(), r.name(), r.leadId(), r.qualified(), r.state(),
                        r.firstCall(), r.callDate(), r.createdAt(), r.updatedAt()});
    }
}
