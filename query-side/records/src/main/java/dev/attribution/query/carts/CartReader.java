package dev.attribution.query.carts;

import dev.attribution.views.CartView;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import dev.attribution.api.PageTokens;
import dev.attribution.query.commerce.LeadEmbeds;
import dev.attribution.query.leads.AttributionColumns;
import dev.attribution.views.Attribution;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.views.ProductView;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reads carts and their items from PostgreSQL. */
@Singleton
public class CartReader {

    /** Filters of {@code GET /carts} (spec 4.12). */
    public record Filter(List<String> emails, List<String> leadIds, Boolean purchased, DateRange created) {
        public String fingerprint() {
            return Integer.toHexString(toString().hashCode());
        }
    }

    record Row(String id, String leadId, String orderId, Instant date, int events, String firstSource, String lastSource) {
    }

    private static final String SELECT = "SELECT c.*, " + AttributionColumns.sourcesAsOf("c", "cart_date") + " FROM carts c WHERE c.account_id = ?";

    private final JdbcOperations jdbc;
    private final LeadReader leads;

    public CartReader(JdbcOperations jdbc, LeadReader leads) {
        this.jdbc = jdbc;
        this.leads = leads;
    }

    @Transactional(readOnly = true)
    public Keyset.Page<CartView> page(String accountId, ZoneId zone, Filter f, Keyset after, int pageSize, PageTokens tokens) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("c.lead_id", f.leadIds());
        q.leadEmailStartsWith("c", f.emails());
        if (f.purchased() != null) {
            q.and(f.purchased() ? "AND c.order_id IS NOT NULL" : "AND c.order_id IS NULL");
        }
        q.range("c.cart_date", f.created()).after("c.cart_date", "c.id", after)
                .and("ORDER BY c.cart_date, c.id LIMIT ?", pageSize + 1);
        Connection c = jdbc.getConnection();
        List<Row> rows = q.list(c, CartReader::row);
        return Keyset.page(rows, pageSize, r -> new Keyset(r.date(), r.id()), shown -> render(c, accountId, zone, shown),
                tokens, accountId, f.fingerprint());
    }

    /** One cart, on the caller's connection. */
    public List<CartView> byId(Connection c, String accountId, ZoneId zone, String id) {
        return render(c, accountId, zone, new SqlQuery(SELECT + " AND c.id = ?", accountId, id).list(c, CartReader::row));
    }

    /** The carts of a lead, oldest first, on the caller's connection (its journey). */
    public List<CartView> byLead(Connection c, String accountId, ZoneId zone, String leadId) {
        return render(c, accountId, zone, new SqlQuery(SELECT + " AND c.lead_id = ? ORDER BY c.cart_date, c.id",
                accountId, leadId).list(c, CartReader::row));
    }

    private List<CartView> render(Connection c, String accountId, ZoneId zone, List<Row> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        Map<String, JsonNode> leadsById = LeadEmbeds.load(leads, c, accountId, zone,
                rows.stream().map(Row::leadId).filter(Objects::nonNull).toList(), false);
        Map<String, List<ProductView>> items = new HashMap<>();
        new SqlQuery("""
                SELECT i.*, p.tag AS product_tag, p.recurring, p.call_product, p.custom_cost, cat.name AS category_name
                FROM cart_items i
                LEFT JOIN products p ON p.account_id = i.account_id AND p.id = i.product_id
                LEFT JOIN sale_categories cat ON cat.account_id = p.account_id AND cat.id = p.category_id
                WHERE i.account_id = ? AND i.cart_id = ANY(?) ORDER BY i.cart_id, i.position""",
                accountId, rows.stream().map(Row::id).toList()).list(c, rs -> {
                    items.computeIfAbsent(rs.getString("cart_id"), k -> new ArrayList<>()).add(new ProductView(
                            rs.getString("product_id"), rs.getString("name"), rs.getString("product_tag"), rs.getString("sku"),
                            rs.getBigDecimal("price"), rs.getBigDecimal("custom_cost"), rs.getBoolean("recurring"),
                            rs.getBoolean("call_product"), rs.getString("category_name")));
                    return null;
                });
        return rows.stream().map(r -> new CartView(r.id(), r.orderId(), ApiDates.formatUtc(r.date()), r.events(),
                r.leadId() == null ? null : leadsById.get(r.leadId()), items.getOrDefault(r.id(), List.of()),
                AttributionColumns.fromColumn(r.firstSource(), zone), AttributionColumns.fromColumn(r.lastSource(), zone))).toList();
    }

    private static Row row(java.sql.ResultSet rs) throws java.sql.SQLException {
        return new Row(rs.getString("id"), rs.getString("lead_id"), rs.getString("order_id"),
                SqlQuery.instant(rs, "cart_date"), rs.getInt("events"),
                rs.getString("first_source"), rs.getString("last_source"));
    }
}
