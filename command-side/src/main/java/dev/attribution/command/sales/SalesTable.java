package dev.attribution.command.sales;

import dev.attribution.api.RequestIds;
import dev.attribution.command.orders.ExchangeRates;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;
import org.postgresql.PGStatement;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The only writer of the {@code sales} table (every INSERT, UPDATE and DELETE on it: orders and their refunds, the
 * sales of {@code $} tags, sale updates and deletes, a product's cost applied to its past sales, the lead erasure),
 * on the worker's connection; it keeps the first/last purchase flags of a lead true. The demo seed loads its
 * generated sales through {@link #insertBulk}, flags already set.
 */
@Singleton
public class SalesTable {

    /** A sale to insert. Money as decimals at the currency's scale. */
    public record NewSale(String orderId, String leadId, String buyerLeadId, ProductCatalog.Product product, String name,
                          String sku, String externalId, String categoryId, String categoryName, List<String> packages,
                          int position, int quantity, BigDecimal unitPrice, BigDecimal price, BigDecimal discount,
                          BigDecimal taxes, BigDecimal shipping, BigDecimal hardCost, BigDecimal costOfGoods,
                          String currency, boolean recurring, Instant saleDate) {
    }

    /** Rows per INSERT statement: 28 parameters a row, well under PostgreSQL's 65,535 parameters per statement. */
    public static final int ROWS_PER_STATEMENT = 1000;

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
        return insertAll(c, accountId, sales, java.util.Collections.nCopies(sales.size(), now));
    }

    /** {@link #insertAll} with each sale's own write time ({@code nows[i]}: several orders placed together). */
    public List<String> insertAll(Connection c, String accountId, List<NewSale> sales, List<Instant> nows) throws SQLException {
        List<String> ids = new ArrayList<>(sales.size());
        for (int from = 0; from < sales.size(); from += ROWS_PER_STATEMENT) {
            List<NewSale> chunk = sales.subList(from, Math.min(sales.size(), from + ROWS_PER_STATEMENT));
            try (PreparedStatement ps = c.prepareStatement(COLUMNS + String.join(", ", java.util.Collections.nCopies(chunk.size(), ROW)))) {
                int i = 0;
                int row = from;
                for (NewSale s : chunk) {
                    Instant now = nows.get(row++);
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
     * <p>
     * Planned for each call, never kept as a server-prepared statement ({@link #plannedEachCall}): a generic plan kept
     * from when the account had one sale joined the account's sales to themselves in a nested loop, 2.96 s and 3.36 M
     * buffers for one call at 1,946 sales (auto_explain, mixed writes on a fresh stack; docs/BENCHMARKS.md "The
     * first-sale flags' kept plan").
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
            plannedEachCall(ps);
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, accountId);
            ps.setString(4, leadId);
            ps.setTimestamp(5, Timestamp.from(now));
            ps.setString(6, accountId);
            ps.executeUpdate();
        }
    }

    /**
     * {@link #refreshFlags} of each (account, lead) pair in one statement, a changed row stamped with its pair's
     * {@code nows[i]} (the latest when a pair repeats): several orders placed together. Planned for each call too.
     */
    public void refreshFlagsMany(Connection c, List<String> accountIds, List<String> leadIds, List<Instant> nows) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                WITH u AS (SELECT a, l, max(t::timestamptz) AS t FROM unnest(?::text[], ?::text[], ?::text[]) AS x(a, l, t) GROUP BY a, l),
                     live AS (SELECT s.account_id, s.lead_id, s.id, s.order_id, s.sale_date, s.recurring, u.t
                              FROM sales s JOIN u ON s.account_id = u.a AND s.lead_id = u.l WHERE NOT s.deleted),
                     first_order AS (SELECT DISTINCT ON (account_id, lead_id) account_id, lead_id, order_id FROM live
                                     WHERE NOT recurring ORDER BY account_id, lead_id, sale_date, order_id),
                     last_order AS (SELECT DISTINCT ON (account_id, lead_id) account_id, lead_id, order_id FROM live
                                    ORDER BY account_id, lead_id, sale_date DESC, order_id DESC),
                     wanted AS (
                         SELECT v.account_id, v.id, v.t,
                                (NOT v.recurring AND v.order_id = f.order_id) IS TRUE AS f,
                                (v.order_id = o.order_id) IS TRUE AS l
                         FROM live v LEFT JOIN first_order f ON f.account_id = v.account_id AND f.lead_id = v.lead_id
                                     LEFT JOIN last_order o ON o.account_id = v.account_id AND o.lead_id = v.lead_id)
                UPDATE sales s SET first_sale = w.f, last_purchase = w.l, updated_at = w.t
                FROM wanted w
                WHERE s.account_id = w.account_id AND s.id = w.id AND (s.first_sale <> w.f OR s.last_purchase <> w.l)""")) {
            plannedEachCall(ps);
            ps.setArray(1, c.createArrayOf("text", accountIds.toArray()));
            ps.setArray(2, c.createArrayOf("text", leadIds.toArray()));
            ps.setArray(3, c.createArrayOf("text", nows.stream().map(Instant::toString).toArray()));
            ps.executeUpdate();
        }
    }

    /**
     * Keeps {@code ps} from being server-prepared (pgjdbc prepares a statement run 5 times on a connection, and
     * PostgreSQL may then keep one generic plan for it until the next ANALYZE): planned for each call, with the
     * table's current size.
     */
    private static void plannedEachCall(PreparedStatement ps) throws SQLException {
        ps.unwrap(PGStatement.class).setPrepareThreshold(0);
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

    /** A live sale of an update, locked for this transaction. */
    public record Locked(String id, boolean refunded, BigDecimal price, String currency, String leadId) {
    }

    /** The live sales among {@code ids}, locked for this transaction. */
    public List<Locked> lockLive(Connection c, String accountId, List<String> ids) throws SQLException {
        List<Locked> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, refunded, price, currency, lead_id FROM sales WHERE account_id = ? AND id = ANY(?) AND NOT deleted FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Locked(rs.getString(1), rs.getBoolean(2), rs.getBigDecimal(3), rs.getString(4).trim(), rs.getString(5)));
                }
            }
        }
        return out;
    }

    /** A live sale of an order: its id, price and whether it is refunded already. */
    public record OrderSale(String id, BigDecimal price, boolean refunded) {
    }

    /** The live sales of an order, in position order. */
    public List<OrderSale> orderSales(Connection c, String accountId, String orderId) throws SQLException {
        List<OrderSale> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT id, price, refunded FROM sales WHERE account_id = ? AND order_id = ? AND NOT deleted ORDER BY position, id")) {
            ps.setString(1, accountId);
            ps.setString(2, orderId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new OrderSale(rs.getString(1), rs.getBigDecimal(2), rs.getBoolean(3)));
                }
            }
        }
        return out;
    }

    /** Refunded ({@code amount} refunded, at {@code date}) or not refunded any more (no date, zero refunded). */
    public void setRefund(Connection c, String accountId, String id, boolean refunded, Instant date, BigDecimal amount, Instant now)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE sales SET refunded = ?, refund_date = ?, refunded_amount = ?, updated_at = ? WHERE account_id = ? AND id = ?")) {
            ps.setBoolean(1, refunded);
            ps.setTimestamp(2, refunded ? Timestamp.from(date) : null);
            ps.setBigDecimal(3, refunded ? amount : BigDecimal.ZERO);
            ps.setTimestamp(4, Timestamp.from(now));
            ps.setString(5, accountId);
            ps.setString(6, id);
            ps.executeUpdate();
        }
    }

    /** The sales refunded now, {@code amounts[i]} refunded of sale {@code ids[i]} (an order's refund). */
    public void refundAll(Connection c, String accountId, List<String> ids, List<BigDecimal> amounts, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE sales SET refunded = true, refund_date = ?, refunded_amount = ?, updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            for (int i = 0; i < ids.size(); i++) {
                ps.setTimestamp(1, Timestamp.from(now));
                ps.setBigDecimal(2, amounts.get(i));
                ps.setTimestamp(3, Timestamp.from(now));
                ps.setString(4, accountId);
                ps.setString(5, ids.get(i));
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Marks the live sales among {@code ids} recurring or not. */
    public void setRecurring(Connection c, String accountId, List<String> ids, boolean recurring, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE sales SET recurring = ?, updated_at = ? WHERE account_id = ? AND id = ANY(?) AND NOT deleted")) {
            ps.setBoolean(1, recurring);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setArray(4, c.createArrayOf("text", ids.toArray()));
            ps.executeUpdate();
        }
    }

    /** Soft-deletes one live sale; returns its lead, or null when there is no such live sale. */
    public String delete(Connection c, String accountId, String id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE sales SET deleted = true, first_sale = false, last_purchase = false, updated_at = ?
                WHERE account_id = ? AND id = ? AND NOT deleted RETURNING lead_id""")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    /** A product's cost per unit applied to its live sales ({@code PUT /products/{id}}, {@code updateHistoricalSales}). */
    public void costOfGoods(Connection c, String accountId, String productId, BigDecimal customCost, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE sales SET cost_of_goods = quantity * ?::numeric, updated_at = ?
                WHERE account_id = ? AND product_id = ? AND NOT deleted""")) {
            ps.setBigDecimal(1, customCost);
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, productId);
            ps.executeUpdate();
        }
    }

    /**
     * The lead's sales (attributed to it or bought by it) gone with it ({@code DELETE /leads}, spec 3.2); the origin
     * leads that were credited with its purchases ({@code parentEmail}) get their flags recomputed without them.
     */
    public void eraseLead(Connection c, String accountId, String leadId, Instant now) throws SQLException {
        List<String> credited = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT DISTINCT lead_id FROM sales WHERE account_id = ? AND buyer_lead_id = ? AND lead_id <> ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, leadId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    credited.add(rs.getString(1));
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM sales WHERE account_id = ? AND (lead_id = ? OR buyer_lead_id = ?)")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setString(3, leadId);
            ps.executeUpdate();
        }
        for (String origin : credited) {
            refreshFlags(c, accountId, origin, now);
        }
    }

    /** A sale written whole (the demo seed's): prices, USD price and first/last purchase flags already worked out. */
    public record Bulk(String accountId, String id, String orderId, String leadId, String buyerLeadId, String productId,
                       String productName, String productTag, String sku, String categoryId, String categoryName, int position,
                       int quantity, BigDecimal unitPrice, BigDecimal price, BigDecimal discount, String currency,
                       BigDecimal usdPrice, boolean recurring, boolean firstSale, boolean lastPurchase, boolean refunded,
                       Instant refundDate, BigDecimal refundedAmount, Instant saleDate, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts sales in one batch (the demo seed; no taxes, shipping or costs). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_id, product_name, product_tag, sku,
                    category_id, category_name, position, quantity, unit_price, price, discount, taxes, shipping, hard_cost,
                    cost_of_goods, currency, usd_price, recurring, first_sale, last_purchase, refunded, refund_date,
                    refunded_amount, sale_date, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.orderId(), r.leadId(), r.buyerLeadId(), r.productId(), r.productName(),
                        r.productTag(), r.sku(), r.categoryId(), r.categoryName(), r.position(), r.quantity(), r.unitPrice(),
                        r.price(), r.discount(), r.currency(), r.usdPrice(), r.recurring(), r.firstSale(), r.lastPurchase(),
                        r.refunded(), r.refundDate(), r.refundedAmount(), r.saleDate(), r.createdAt(), r.updatedAt()});
    }
}
