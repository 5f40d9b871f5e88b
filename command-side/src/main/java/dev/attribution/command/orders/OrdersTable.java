package dev.attribution.command.orders;

import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The only writer of the {@code orders} table (every INSERT, UPDATE and DELETE on it: placing, updating and refunding
 * an order, the lead erasure), and the order lookups the order writes make. The demo seed loads its generated
 * orders through {@link #insertBulk}.
 */
@Singleton
public class OrdersTable {

    /** A stored order. */
    record Order(String id, String leadId, String currency, Instant date, BigDecimal hardCost) {
    }

    /** A new order's row: what the order says beside its sales. Money as decimals at the currency's scale. */
    record NewOrder(String id, String leadId, String cartId, String externalSubscriptionId, String currency, Instant date,
                    BigDecimal shippingCost, BigDecimal taxes, BigDecimal orderDiscount, BigDecimal hardCost, String digest) {
    }

    Optional<Order> find(Connection c, String accountId, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, lead_id, currency, order_date, hard_cost FROM orders WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Order(rs.getString(1), rs.getString(2), rs.getString(3).trim(),
                        rs.getTimestamp(4).toInstant(), rs.getBigDecimal(5))) : Optional.empty();
            }
        }
    }

    /** The order by id; with {@code integrationType}, through the live sale of that integration whose item externalId is {@code id}. */
    Optional<Order> resolve(Connection c, String accountId, String id, String integrationType) throws SQLException {
        if (integrationType == null) {
            return find(c, accountId, id);
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT s.order_id FROM sales s JOIN orders o ON o.account_id = s.account_id AND o.id = s.order_id
                WHERE s.account_id = ? AND s.external_id = ? AND upper(o.integration_type) = upper(?) AND NOT s.deleted
                ORDER BY s.created_at DESC LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, integrationType);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? find(c, accountId, rs.getString(1)) : Optional.empty();
            }
        }
    }

    /** The content digest stored with the order ({@link OrderInput#digest}), or null. */
    String storedDigest(Connection c, String accountId, String orderId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT content_digest FROM orders WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** The lead the order's latest sale is attributed to, else the order's buyer. */
    String attributedLead(Connection c, String accountId, Order order) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT lead_id FROM sales WHERE account_id = ? AND order_id = ? ORDER BY created_at DESC LIMIT 1")) {
            ps.setString(1, accountId);
            ps.setString(2, order.id());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : order.leadId();
            }
        }
    }

    void insert(Connection c, String accountId, NewOrder o, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO orders (account_id, id, lead_id, cart_id, external_subscription_id, currency, order_date,
                    shipping_cost, taxes, order_discount, hard_cost, created_at, updated_at, content_digest)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, o.id());
            ps.setString(3, o.leadId());
            ps.setString(4, o.cartId());
            ps.setString(5, o.externalSubscriptionId());
            ps.setString(6, o.currency());
            ps.setTimestamp(7, Timestamp.from(o.date()));
            ps.setBigDecimal(8, o.shippingCost());
            ps.setBigDecimal(9, o.taxes());
            ps.setBigDecimal(10, o.orderDiscount());
            ps.setBigDecimal(11, o.hardCost());
            ps.setTimestamp(12, Timestamp.from(now));
            ps.setTimestamp(13, Timestamp.from(now));
            ps.setString(14, o.digest());
            ps.executeUpdate();
        }
    }

    /** Which of the orders (account {@code accountIds[i]}, id {@code ids[i]}) exist, as {@code account + '\0' + id}. */
    Set<String> existing(Connection c, List<String> accountIds, List<String> ids) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT o.account_id, o.id FROM orders o JOIN unnest(?::text[], ?::text[]) AS u(a, i) ON o.account_id = u.a AND o.id = u.i""")) {
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1) + '\u0000' + rs.getString(2));
                }
            }
        }
        return out;
    }

    /** {@link #insert} of each order ({@code rows[i]} of account {@code accountIds[i]}, written at {@code nows[i]}), in one statement. */
    void insertAll(Connection c, List<String> accountIds, List<NewOrder> rows, List<Instant> nows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO orders (account_id, id, lead_id, cart_id, external_subscription_id, currency, order_date,
                    shipping_cost, taxes, order_discount, hard_cost, created_at, updated_at, content_digest)
                SELECT a, i, l, ct, su, cu, d::timestamptz, sh::numeric, tx::numeric, di::numeric, hc::numeric,
                       t::timestamptz, t::timestamptz, dg
                FROM unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[], ?::text[],
                            ?::text[], ?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(a, i, l, ct, su, cu, d, sh, tx, di, hc, t, dg, o)
                ORDER BY o""")) {
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", rows.stream().map(NewOrder::id).toArray()));
            ps.setArray(3, c.createArrayOf("text", rows.stream().map(NewOrder::leadId).toArray()));
            ps.setArray(4, c.createArrayOf("text", rows.stream().map(NewOrder::cartId).toArray()));
            ps.setArray(5, c.createArrayOf("text", rows.stream().map(NewOrder::externalSubscriptionId).toArray()));
            ps.setArray(6, c.createArrayOf("text", rows.stream().map(NewOrder::currency).toArray()));
            ps.setArray(7, c.createArrayOf("text", rows.stream().map(o -> o.date().toString()).toArray()));
            ps.setArray(8, c.createArrayOf("text", rows.stream().map(o -> text(o.shippingCost())).toArray()));
            ps.setArray(9, c.createArrayOf("text", rows.stream().map(o -> text(o.taxes())).toArray()));
            ps.setArray(10, c.createArrayOf("text", rows.stream().map(o -> text(o.orderDiscount())).toArray()));
            ps.setArray(11, c.createArrayOf("text", rows.stream().map(o -> text(o.hardCost())).toArray()));
            ps.setArray(12, c.createArrayOf("text", nows.stream().map(Instant::toString).toArray()));
            ps.setArray(13, c.createArrayOf("text", rows.stream().map(NewOrder::digest).toArray()));
            ps.executeUpdate();
        }
    }

    private static String text(BigDecimal amount) {
        return amount == null ? null : amount.toPlainString();
    }

    /** An order's amounts written again ({@code PUT /orders/{id}}); its cart and subscription kept when none is sent. */
    void update(Connection c, String accountId, String id, String currency, BigDecimal shippingCost, BigDecimal taxes,
                BigDecimal orderDiscount, BigDecimal hardCost, String cartId, String externalSubscriptionId, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE orders SET currency = ?, shipping_cost = ?, taxes = ?, order_discount = ?, hard_cost = ?,
                    cart_id = COALESCE(?, cart_id), external_subscription_id = COALESCE(?, external_subscription_id), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, currency);
            ps.setBigDecimal(2, shippingCost);
            ps.setBigDecimal(3, taxes);
            ps.setBigDecimal(4, orderDiscount);
            ps.setBigDecimal(5, hardCost);
            ps.setString(6, cartId);
            ps.setString(7, externalSubscriptionId);
            ps.setTimestamp(8, Timestamp.from(now));
            ps.setString(9, accountId);
            ps.setString(10, id);
            ps.executeUpdate();
        }
    }

    void markRefunded(Connection c, String accountId, String id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE orders SET refunded_at = ?, updated_at = ? WHERE account_id = ? AND id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, id);
            ps.executeUpdate();
        }
    }

    /** The lead's orders, gone with it ({@code DELETE /leads}, spec 3.2). */
    public void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM orders WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /** An order written whole (the demo seed's): money is on its sales; {@code refundedAt} null: not refunded. */
    public record Bulk(String accountId, String id, String leadId, String cartId, String externalSubscriptionId, String currency,
                       Instant orderDate, Instant refundedAt, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts orders in one batch (the demo seed; no events). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO orders (account_id, id, lead_id, cart_id, external_subscription_id, currency, order_date,
                    refunded_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.leadId(), r.cartId(), r.externalSubscriptionId(), r.currency(),
                        r.orderDate(), r.refundedAt(), r.createdAt(), r.updatedAt()});
    }
}
