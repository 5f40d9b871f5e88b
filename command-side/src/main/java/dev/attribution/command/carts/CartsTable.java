package dev.attribution.command.carts;

import dev.attribution.command.carts.CartCommands.CartItem;
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
 * cart writes, an order buying a cart, the lead erasure), and the lookups the cart writes make. (The demo seed
 * loads its generated carts with its own batch inserts, {@code server/demo/Batches}.)
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
}
