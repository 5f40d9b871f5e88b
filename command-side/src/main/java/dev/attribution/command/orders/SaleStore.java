package dev.attribution.command.orders;

import dev.attribution.api.RequestIds;
import dev.attribution.command.products.ProductCatalog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Writes to {@code sales} on the worker's connection, and keeps the first/last purchase flags of a lead true. */
@Singleton
public class SaleStore {

    /** A sale to insert. Money as decimals at the currency's scale. */
    public record NewSale(String orderId, String leadId, String buyerLeadId, ProductCatalog.Product product, String name,
                          String sku, String externalId, String categoryId, String categoryName, List<String> packages,
                          int position, int quantity, BigDecimal unitPrice, BigDecimal price, BigDecimal discount,
                          BigDecimal taxes, BigDecimal shipping, BigDecimal hardCost, BigDecimal costOfGoods,
                          String currency, boolean recurring, Instant saleDate) {
    }

    /** Rows per INSERT statement: 28 parameters a row, well under PostgreSQL's 65,535 parameters per statement. */
    static final int ROWS_PER_STATEMENT = 1000;

    private static final String COLUMNS = """
            INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_id, product_name, product_tag,
                sku, external_id, category_id, category_name, packages, position, quantity, unit_price, price, discount,
                taxes, shipping, hard_cost, cost_of_goods, currency, usd_price, recurring, sale_date, created_at, updated_at)
            VALUES """;
    private static final String ROW = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    public String insert(Connection c, String accountId, NewSale s, Instant now) throws SQLException {
        return insertAll(c, accountId, List.of(s), now).get(0);
    }

    /**
     * Inserts {@code sales} in order, {@link #ROWS_PER_STATEMENT} rows per statement; returns their ids. One statement
     * for many rows matters beyond round trips: the statement-level triggers that refresh a lead's conversion touches
     * run once per statement over all the lead's sales, so a sale per statement made an order's apply quadratic in its
     * items (10,000 items: 13 minutes).
     */
    public List<String> insertAll(Connection c, String accountId, List<NewSale> sales, Instant now) throws SQLException {
        List<String> ids = new ArrayList<>(sales.size());
        for (int from = 0; from < sales.size(); from += ROWS_PER_STATEMENT) {
            List<NewSale> chunk = sales.subList(from, Math.min(sales.size(), from + ROWS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement(COLUMNS + String.join(", ", java.util.Collections.nCopies(chunk.size(), ROW)))) {
                int i = 0;
                for (NewSale s : chunk) {
                    String id = RequestIds.next("sle_");
                    ids.add(id);
                    ps.setString(++i, accountId);
                    ps.setString(++i, id);
                    ps.setString(++i, s.orderId());
                    ps.setString(++i, s.leadId());
                    ps.setString(++i, s.buyerLeadId());
                    ps.setString(++i, s.product() == null ? null : s.product().id());
                    ps.setString(++i, s.name());
                    ps.setString(++i, s.product() == null ? null : s.product().tag());
                    ps.setString(++i, s.sku());
                    ps.setString(++i, s.externalId());
                    ps.setString(++i, s.categoryId());
                    ps.setString(++i, s.categoryName());
                    ps.setArray(++i, c.createArrayOf("text", s.packages().toArray()));
                    ps.setInt(++i, s.position());
                    ps.setInt(++i, s.quantity());
                    ps.setBigDecimal(++i, s.unitPrice());
                    ps.setBigDecimal(++i, s.price());
                    ps.setBigDecimal(++i, s.discount());
                    ps.setBigDecimal(++i, s.taxes());
                    ps.setBigDecimal(++i, s.shipping());
                    ps.setBigDecimal(++i, s.hardCost());
                    ps.setBigDecimal(++i, s.costOfGoods());
                    ps.setString(++i, s.currency());
                    ps.setBigDecimal(++i, ExchangeRates.toUsd(c, s.price(), s.currency(), s.saleDate()));
                    ps.setBoolean(++i, s.recurring());
                    ps.setTimestamp(++i, Timestamp.from(s.saleDate()));
                    ps.setTimestamp(++i, Timestamp.from(now));
                    ps.setTimestamp(++i, Timestamp.from(now));
                }
                ps.executeUpdate();
            }
        }
        return ids;
    }

    /** True when the lead bought this product, or one sharing a package with it, before {@code before}. */
    public boolean boughtBefore(Connection c, String accountId, String leadId, ProductCatalog.Product product, Instant before)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT 1 FROM sales WHERE account_id = ? AND lead_id = ? AND NOT deleted AND sale_date < ?
                AND (product_id = ? OR packages && ?) LIMIT 1""")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setTimestamp(3, Timestamp.from(before));
            ps.setString(4, product.id());
            ps.setArray(5, c.createArrayOf("text", product.packages().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /**
     * Recomputes the lead's purchase flags: {@code first_sale} on the non-recurring sales of its earliest order
     * (a rebill never makes a new customer), {@code last_purchase} on the sales of its latest order. Only rows whose
     * flags change are written, so the CDC stream carries no idle updates.
     */
    public void refreshFlags(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                WITH live AS (SELECT order_id, sale_date, recurring FROM sales WHERE account_id = ? AND lead_id = ? AND NOT deleted),
                     first_order AS (SELECT order_id FROM live WHERE NOT recurring ORDER BY sale_date, order_id LIMIT 1),
                     last_order AS (SELECT order_id FROM live ORDER BY sale_date DESC, order_id DESC LIMIT 1),
                     wanted AS (
                         SELECT s.id,
                                (NOT s.recurring AND s.order_id = (SELECT order_id FROM first_order)) IS TRUE AS f,
                                (s.order_id = (SELECT order_id FROM last_order)) IS TRUE AS l
                         FROM sales s WHERE s.account_id = ? AND s.lead_id = ? AND NOT s.deleted)
                UPDATE sales s SET first_sale = w.f, last_purchase = w.l, updated_at = ?
                FROM wanted w
                WHERE s.account_id = ? AND s.id = w.id AND (s.first_sale <> w.f OR s.last_purchase <> w.l)""")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setString(6, accountId);
            ps.executeUpdate();
        }
    }

    /** Soft-deletes the live sales of an order; returns the leads they belonged to. */
    public List<String> deleteOrderSales(Connection c, String accountId, String orderId, Instant now) throws SQLException {
        List<String> leads = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE sales SET deleted = true, first_sale = false, last_purchase = false, updated_at = ?
                WHERE account_id = ? AND order_id = ? AND NOT deleted RETURNING lead_id""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (!leads.contains(rs.getString(1))) {
                        leads.add(rs.getString(1));
                    }
                }
            }
        }
        return leads;
    }
}
