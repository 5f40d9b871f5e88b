package dev.attribution.command.subscriptions;

import dev.attribution.api.RequestIds;
import dev.attribution.command.subscriptions.SubscriptionCommands.CreateSubscription;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The only writer of the {@code subscriptions} table (every INSERT and UPDATE on it: the subscription writes, the
 * category an order's first paid sale gives, the lead erasure), and the lookups the subscription writes make. The
 * demo seed loads its generated subscriptions through {@link #insertBulk}.
 */
@Singleton
public class SubscriptionsTable {

    /** A subscription found by its subscriptionId, locked for this transaction. */
    record Existing(String id, String status) {
    }

    /** The fields a write changes; null ones are kept. */
    record Changes(String name, BigDecimal price, String status, String startDate, String endDate, String cancelAtDate,
                   String trialStartDate, String trialEndDate) {
    }

    Existing lockByExternalId(Connection c, String accountId, String externalId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, status FROM subscriptions WHERE account_id = ? AND external_id = ? FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, externalId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Existing(rs.getString(1), rs.getString(2)) : null;
            }
        }
    }

    /** The subscriptions named by id or subscriptionId, locked in id order: their status by id. */
    Map<String, String> lockStatuses(Connection c, String accountId, List<String> keys) throws SQLException {
        Map<String, String> statusById = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, status FROM subscriptions WHERE account_id = ? AND (id = ANY(?) OR external_id = ANY(?)) ORDER BY id FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", keys.toArray()));
            ps.setArray(3, c.createArrayOf("text", keys.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    statusById.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return statusById;
    }

    /** A new subscription; returns its id. */
    String insert(Connection c, String accountId, CreateSubscription s, String leadId, String tag, Instant now) throws SQLException {
        String id = RequestIds.next("sub_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO subscriptions (account_id, id, external_id, lead_id, plan_id, name, tag, periodicity, price,
                    status, start_date, end_date, cancel_at_date, trial_start_date, trial_end_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, s.subscriptionId());
            ps.setString(4, leadId);
            ps.setString(5, s.planId());
            ps.setString(6, s.name());
            ps.setString(7, tag);
            ps.setString(8, s.periodicity().name());
            ps.setBigDecimal(9, s.price());
            ps.setString(10, s.status().name());
            ps.setTimestamp(11, ts(s.startDate()));
            ps.setTimestamp(12, ts(s.endDate()));
            ps.setTimestamp(13, ts(s.cancelAtDate()));
            ps.setTimestamp(14, ts(s.trialStartDate()));
            ps.setTimestamp(15, ts(s.trialEndDate()));
            ps.setTimestamp(16, Timestamp.from(now));
            ps.setTimestamp(17, Timestamp.from(now));
            ps.executeUpdate();
        }
        return id;
    }

    /** An existing subscription written again by a create: its lead, plan, tag and periodicity. */
    void relink(Connection c, String accountId, String id, String leadId, String planId, String tag, String periodicity)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriptions SET lead_id = ?, plan_id = COALESCE(?, plan_id), tag = COALESCE(?, tag),
                    periodicity = ? WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, leadId);
            ps.setString(2, planId);
            ps.setString(3, tag);
            ps.setString(4, periodicity);
            ps.setString(5, accountId);
            ps.setString(6, id);
            ps.executeUpdate();
        }
    }

    /** Applies the fields sent to the subscriptions. */
    void update(Connection c, String accountId, List<String> ids, Changes ch, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriptions SET name = COALESCE(?, name), price = COALESCE(?, price), status = COALESCE(?, status),
                    start_date = COALESCE(?, start_date), end_date = COALESCE(?, end_date),
                    cancel_at_date = COALESCE(?, cancel_at_date), trial_start_date = COALESCE(?, trial_start_date),
                    trial_end_date = COALESCE(?, trial_end_date), updated_at = ?
                WHERE account_id = ? AND id = ANY(?)""")) {
            ps.setString(1, ch.name());
            ps.setBigDecimal(2, ch.price());
            ps.setString(3, ch.status());
            ps.setTimestamp(4, ts(ch.startDate()));
            ps.setTimestamp(5, ts(ch.endDate()));
            ps.setTimestamp(6, ts(ch.cancelAtDate()));
            ps.setTimestamp(7, ts(ch.trialStartDate()));
            ps.setTimestamp(8, ts(ch.trialEndDate()));
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setString(10, accountId);
            ps.setArray(11, c.createArrayOf("text", ids.toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * The subscription an order names ({@code externalSubscriptionId}: its subscriptionId or id) gets the category of
     * the order's first paid sale, when it has none yet.
     */
    public void categoryFromOrder(Connection c, String accountId, String subscription, String orderId, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriptions u SET category_id = s.category_id, category_name = s.category_name, updated_at = ?
                FROM (SELECT category_id, category_name FROM sales WHERE account_id = ? AND order_id = ? AND NOT deleted
                      AND price > 0 AND category_id IS NOT NULL ORDER BY position LIMIT 1) s
                WHERE u.account_id = ? AND (u.external_id = ? OR u.id = ?) AND u.category_id IS NULL""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, orderId);
            ps.setString(4, accountId);
            ps.setString(5, subscription);
            ps.setString(6, subscription);
            ps.executeUpdate();
        }
    }

    /** The lead's subscriptions are cancelled ({@code DELETE /leads}, spec 3.2). */
    public void cancelForLead(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE subscriptions SET status = 'CANCELED', end_date = COALESCE(end_date, ?), updated_at = ?
                WHERE account_id = ? AND lead_id = ? AND status <> 'CANCELED'""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.executeUpdate();
        }
    }

    private static Timestamp ts(String instant) {
        return instant == null ? null : Timestamp.from(Instant.parse(instant));
    }

    /** A subscription written whole (the demo seed's). */
    public record Bulk(String accountId, String id, String externalId, String leadId, String planId, String name, String tag,
                       String periodicity, BigDecimal price, String status, Instant startDate, Instant endDate,
                       Instant cancelAtDate, String categoryId, String categoryName, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts subscriptions in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO subscriptions (account_id, id, external_id, lead_id, plan_id, name, tag, periodicity, price, status,
                    start_date, end_date, cancel_at_date, category_id, category_name, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.externalId(), r.leadId(), r.planId(), r.name(), r.tag(), r.periodicity(),
                        r.price(), r.status(), r.startDate(), r.endDate(), r.cancelAtDate(), r.categoryId(), r.categoryName(),
                        r.createdAt(), r.updatedAt()});
    }
}
