package dev.attribution.command.carts;

import dev.attribution.command.carts.CartCommands.CartItem;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

/**
 * The only writer of the {@code carts} and {@code cart_items} tables (every INSERT, UPDATE and DELETE on them: the
 * cart writes, an order buying a cart, the lead erasure, the demo seed's batches), and the lookups the cart writes make.
 */
@Singleton
public class CartsTable {

    /** Whether the cart exists and is purchased, locked for this transaction; null when there is no such cart. */
    Boolean lockPurchased(Connection c, String accountId, String cartId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id IS NOT NULL FROM carts WHERE account_id = ? AND id = ? FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, cartId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getBoolean(1) : null;
            }
        }
    }

    /** A new cart (one event) without items. */
    void insert(Connection c, String accountId, String cartId, String leadId, String currency, BigDecimal total, Instant date,
                Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO carts (account_id, id, lead_id, currency, total, events, cart_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, cartId);
            ps.setString(3, leadId);
            ps.setString(4, currency);
            ps.setBigDecimal(5, total);
            ps.setTimestamp(6, Timestamp.from(date));
            ps.setTimestamp(7, Timestamp.from(now));
            ps.setTimestamp(8, Timestamp.from(now));
            ps.executeUpdate();
        }
    }

    /** An existing cart written again: one more event, its lead kept when none is named, its items removed. */
    void rewrite(Connection c, String accountId, String cartId, String leadId, String currency, BigDecimal total, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE carts SET lead_id = COALESCE(?, lead_id), currency = ?, total = ?, events = events + 1, updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, leadId);
            ps.setString(2, currency);
            ps.setBigDecimal(3, total);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setString(5, accountId);
            ps.setString(6, cartId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM cart_items WHERE account_id = ? AND cart_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, cartId);
            ps.executeUpdate();
        }
    }

    /** The cart's items in order; {@code productIds[i]}: the live product named as item i, or null. */
    void insertItems(Connection c, String accountId, String cartId, List<CartItem> items, List<String> productIds)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO cart_items (account_id, cart_id, position, name, price, quantity, external_id, sku, is_rebill, product_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            for (int i = 0; i < items.size(); i++) {
                CartItem item = items.get(i);
                ps.setString(1, accountId);
                ps.setString(2, cartId);
                ps.setInt(3, i);
                ps.setString(4, item.name());
                ps.setBigDecimal(5, item.price());
                ps.setInt(6, item.quantity());
                ps.setString(7, item.externalId());
                ps.setString(8, item.sku());
                ps.setBoolean(9, item.isRebill());
                ps.setString(10, productIds.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** An order naming the cart makes it purchased (spec 2.10), once: a purchased cart keeps its first order. */
    public void markPurchased(Connection c, String accountId, String cartId, String orderId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE carts SET order_id = ?, updated_at = ? WHERE account_id = ? AND id = ? AND order_id IS NULL")) {
            ps.setString(1, orderId);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, cartId);
            ps.executeUpdate();
        }
    }

    /** The lead's carts are kept without the link to it ({@code DELETE /leads}, spec 3.2). */
    public void unlinkLead(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE carts SET lead_id = NULL, updated_at = ? WHERE account_id = ? AND lead_id = ?")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.executeUpdate();
        }
    }

    /** A cart written whole (the demo seed's); {@code orderId} null: not bought. */
    public record BulkCart(String accountId, String id, String leadId, String currency, BigDecimal total, int events,
                           String orderId, Instant cartDate, Instant createdAt, Instant updatedAt) {
    }

    /** An item of a {@link BulkCart}. */
    public record BulkItem(String accountId, String cartId, int position, String name, BigDecimal price, int quantity,
                           String sku, boolean rebill, String productId) {
    }

    /** Inserts carts in one batch (the demo seed); their items go in after, {@link #insertBulkItems}. */
    public static void insertBulkCarts(Connection c, List<BulkCart> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO carts (account_id, id, lead_id, currency, total, events, order_id, cart_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows, r -> new Object[]{r.accountId(), r.id(), r.leadId(), r.currency(),
                r.total(), r.events(), r.orderId(), r.cartDate(), r.createdAt(), r.updatedAt()});
    }

    /** Inserts cart items in one batch (the demo seed). */
    public static void insertBulkItems(Connection c, List<BulkItem> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO cart_items (account_id, cart_id, position, name, price, quantity, sku, is_rebill, product_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows, r -> new Object[]{r.accountId(), r.cartId(), r.position(), r.name(),
                r.price(), r.quantity(), r.sku(), r.rebill(), r.productId()});
    }
}
