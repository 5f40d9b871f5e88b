package dev.attribution.query.products;

import dev.attribution.views.ProductView;

import dev.attribution.api.DateRange;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Reads live (not deleted) products from PostgreSQL. */
@Singleton
public class ProductReader {

    /** The filters of {@code GET /products} (spec 4.6); null means not filtered. */
    public record Filter(String name, String tag, String category, Boolean recurring, DateRange created) {
        public String fingerprint() {
            return Integer.toHexString(toString().hashCode());
        }
    }

    record Row(ProductView view, Instant createdAt) {
    }

    private static final String SELECT = """
            SELECT p.*, c.name AS category_name FROM products p
            LEFT JOIN sale_categories c ON c.account_id = p.account_id AND c.id = p.category_id
            WHERE p.account_id = ? AND NOT p.deleted""";

    private final JdbcOperations jdbc;

    public ProductReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Keyset.Page<ProductView> page(String accountId, Filter f, Keyset after, int pageSize, String fingerprint,
                                         dev.attribution.api.PageTokens tokens) {
        SqlQuery q = new SqlQuery(SELECT, accountId);
        if (f.name() != null) {
            q.and("AND p.name = ?", f.name());
        }
        if (f.tag() != null) {
            q.and("AND lower(p.tag) = lower(?)", f.tag());
        }
        if (f.category() != null) {
            q.and("AND lower(c.name) = lower(?)", f.category());
        }
        if (f.recurring() != null) {
            q.and("AND p.recurring = ?", f.recurring());
        }
        q.range("p.created_at", f.created()).after("p.created_at", "p.id", after)
                .and("ORDER BY p.created_at, p.id LIMIT ?", pageSize + 1);
        List<Row> rows = q.list(jdbc.getConnection(), ProductReader::row);
        return Keyset.page(rows, pageSize, r -> new Keyset(r.createdAt(), r.view().id()),
                shown -> shown.stream().map(Row::view).toList(), tokens, accountId, fingerprint);
    }

    /** One live product, on the caller's connection (write handlers render their result with it). */
    public Optional<ProductView> byId(Connection connection, String accountId, String id) {
        return new SqlQuery(SELECT + " AND p.id = ?", accountId, id).list(connection, ProductReader::row)
                .stream().map(Row::view).findFirst();
    }

    @Transactional(readOnly = true)
    public Optional<ProductView> byId(String accountId, String id) {
        return byId(jdbc.getConnection(), accountId, id);
    }

    private static Row row(ResultSet rs) throws SQLException {
        return new Row(new ProductView(rs.getString("id"), rs.getString("name"), rs.getString("tag"), rs.getString("sku"),
                rs.getBigDecimal("price"), rs.getBigDecimal("custom_cost"), rs.getBoolean("recurring"),
                rs.getBoolean("call_product"), rs.getString("category_name")), SqlQuery.instant(rs, "created_at"));
    }
}
