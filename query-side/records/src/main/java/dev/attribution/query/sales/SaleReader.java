package dev.attribution.query.sales;

import dev.attribution.views.SaleView;

import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import dev.attribution.api.PageTokens;
import dev.attribution.query.commerce.LeadRow;
import dev.attribution.query.leads.AttributionColumns;
import dev.attribution.views.Attribution;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads live sales from PostgreSQL in the Sale shape, each with its (attributed) lead embedded. */
@Singleton
public class SaleReader {

    /** The filters of {@code GET /sales} (spec 4.2); null booleans mean ALL. */
    public record Filter(List<String> ids, List<String> emails, List<String> leadIds, List<String> productTags,
                         Boolean recurring, Boolean refunded, DateRange saleDate, DateRange updated) {
        public String fingerprint() {
            return Integer.toHexString(toString().hashCode());
        }
    }

    /** A sale row before its lead is attached. */
    private static final String SELECT = "SELECT s.*, o.integration_type, " + AttributionColumns.sourcesAsOf("s", "sale_date")
            + " FROM sales s JOIN orders o ON o.account_id = s.account_id AND o.id = s.order_id WHERE s.account_id = ? AND NOT s.deleted";

    private final JdbcOperations jdbc;
    private final LeadReader leads;

    public SaleReader(JdbcOperations jdbc, LeadReader leads) {
        this.jdbc = jdbc;
        this.leads = leads;
    }

    @Transactional(readOnly = true)
    public Keyset.Page<SaleView> page(String accountId, ZoneId zone, Filter f, Keyset after, int pageSize,
                                      PageTokens tokens) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("s.id", f.ids()).anyOf("s.lead_id", f.leadIds());
        q.leadEmailStartsWith("s", f.emails());
        q.anyOfLower("s.product_tag", f.productTags());
        if (f.recurring() != null) {
            q.and("AND s.recurring = ?", f.recurring());
        }
        if (f.refunded() != null) {
            q.and("AND s.refunded = ?", f.refunded());
        }
        q.range("s.sale_date", f.saleDate()).range("s.updated_at", f.updated())
                .after("s.sale_date", "s.id", after).and("ORDER BY s.sale_date, s.id LIMIT ?", pageSize + 1);
        Connection c = jdbc.getConnection();
        List<LeadRow<SaleView>> rows = q.list(c, rs -> row(rs, zone));
        return Keyset.page(rows, pageSize, LeadRow::position,
                shown -> withLeads(c, accountId, zone, shown), tokens, accountId, f.fingerprint());
    }

    /** The live sales of an order in item order, on the caller's connection. */
    public List<SaleView> byOrder(Connection c, String accountId, ZoneId zone, String orderId) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND s.order_id = ? ORDER BY s.position, s.id",
                accountId, orderId).list(c, rs -> row(rs, zone)));
    }

    /**
     * The live sales of each of {@code orderIds}, each order's in item order as {@link #byOrder} reads them, on the
     * caller's connection: one read and one lead embed for a group of orders (issue 23 point 3). An order without
     * live sales maps to an empty list.
     */
    public Map<String, List<SaleView>> byOrders(Connection c, String accountId, ZoneId zone, List<String> orderIds) {
        List<SaleView> all = withLeads(c, accountId, zone, new SqlQuery(SELECT
                + " AND s.order_id = ANY(?) ORDER BY s.order_id, s.position, s.id", accountId, orderIds).list(c, rs -> row(rs, zone)));
        Map<String, List<SaleView>> out = new HashMap<>();
        for (String orderId : orderIds) {
            out.put(orderId, new ArrayList<>());
        }
        for (SaleView sale : all) {
            out.get(sale.orderId()).add(sale);
        }
        return out;
    }

    /** The live sales of {@code ids}, on the caller's connection. */
    public List<SaleView> byIds(Connection c, String accountId, ZoneId zone, List<String> ids) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND s.id = ANY(?) ORDER BY s.sale_date, s.id",
                accountId, ids).list(c, rs -> row(rs, zone)));
    }

    /** The live sales of a lead, oldest first, on the caller's connection (its journey). */
    public List<SaleView> byLead(Connection c, String accountId, ZoneId zone, String leadId) {
        return withLeads(c, accountId, zone, new SqlQuery(SELECT + " AND s.lead_id = ? ORDER BY s.sale_date, s.id",
                accountId, leadId).list(c, rs -> row(rs, zone)));
    }

    private List<SaleView> withLeads(Connection c, String accountId, ZoneId zone, List<LeadRow<SaleView>> rows) {
        return LeadRow.withLeads(leads, c, accountId, zone, rows, (v, lead) -> new SaleView(v.id(), v.orderId(),
                v.creationDate(), v.refundDate(), v.qualified(), v.score(), v.recurring(), v.quantity(), lead, v.firstSource(),
                v.lastSource(), v.price(), v.product(), v.provider()));
    }

    private static LeadRow<SaleView> row(ResultSet rs, ZoneId zone) throws SQLException {
        Instant saleDate = SqlQuery.instant(rs, "sale_date");
        boolean refunded = rs.getBoolean("refunded");
        String categoryId = rs.getString("category_id");
        SaleView view = new SaleView(
                rs.getString("id"),
                rs.getString("order_id"),
                ApiDates.formatLegacy(saleDate, zone),
                refunded ? ApiDates.formatLegacy(SqlQuery.instant(rs, "refund_date"), zone) : null,
                true,
                dev.attribution.query.commerce.Scores.UNSCORED,
                rs.getBoolean("recurring"),
                rs.getInt("quantity"),
                null,
                AttributionColumns.fromColumn(rs.getString("first_source"), zone),
                AttributionColumns.fromColumn(rs.getString("last_source"), zone),
                new SaleView.Price(rs.getString("currency"), rs.getBigDecimal("price"), rs.getBigDecimal("discount"),
                        rs.getBigDecimal("hard_cost"), rs.getBigDecimal("refunded_amount")),
                new SaleView.SaleProduct(rs.getString("product_id"), rs.getString("product_name"),
                        rs.getString("product_tag"), rs.getString("sku"),
                        categoryId == null ? null : new SaleView.Category(categoryId, rs.getString("category_name"))),
                SaleView.Provider.of(rs.getString("integration_type")));
        return new LeadRow<>(rs.getString("id"), rs.getString("lead_id"), saleDate, view);
    }
}
