package dev.attribution.command.products;

import dev.attribution.api.DatabaseReads;
import dev.attribution.api.RequestIds;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import dev.attribution.api.SaleTags;
import dev.attribution.command.commerce.Categories;
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
import java.util.Locale;
import java.util.Optional;

/**
 * The only writer of {@code products} (on the worker's connection), and the lookups product writes make, the
 * accept-time one included ({@link #flags}). Also the one place a product tag is derived from a name
 * ({@code $} + the name lower-cased, runs of other characters than letters and digits as one hyphen).
 */
@Singleton
public class ProductCatalog {

    /** The two flags of a live product, checked when its update is accepted. */
    record Flags(boolean recurring, boolean callProduct) {
    }

    private final JdbcOperations jdbc;

    ProductCatalog(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The accept-time lookup of {@code PUT /products/{id}}: the flags of the live product {@code id}, or empty when the
     * account has none with that id (a product cannot be both a recurring sale and a call product).
     */
    @Transactional(readOnly = true)
    public Optional<Flags> flags(String accountId, String id) {
        DatabaseReads.beforeRead();
        return jdbc.prepareStatement(
                "SELECT recurring, call_product FROM products WHERE account_id = ? AND id = ? AND NOT deleted", ps -> {
                    ps.setString(1, accountId);
                    ps.setString(2, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? Optional.of(new Flags(rs.getBoolean(1), rs.getBoolean(2))) : Optional.empty();
                    }
                });
    }

    /** {@code PUT /products/{id}}: the fields sent change ({@code category} sent: set, even to none). */
    void update(Connection c, String accountId, ProductCommands.UpdateProduct u, boolean recurring, String categoryId,
                Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE products SET name = COALESCE(?, name), price = COALESCE(?, price), custom_cost = COALESCE(?, custom_cost),
                       tag = COALESCE(?, tag), sku = COALESCE(?, sku), recurring = ?, call_product = COALESCE(?, call_product),
                       category_id = CASE WHEN ? THEN ? ELSE category_id END,
                       packages = COALESCE(?, packages), updated_at = ?
                WHERE account_id = ? AND id = ?""")) {
            ps.setString(1, u.name());
            ps.setBigDecimal(2, u.price());
            ps.setBigDecimal(3, u.customCost());
            ps.setString(4, u.tag());
            ps.setString(5, u.sku());
            ps.setBoolean(6, recurring);
            ps.setObject(7, u.callProduct());
            ps.setBoolean(8, u.category() != null);
            ps.setString(9, categoryId);
            ps.setArray(10, u.packages() != null ? c.createArrayOf("text", u.packages().toArray()) : null);
            ps.setTimestamp(11, Timestamp.from(now));
            ps.setString(12, accountId);
            ps.setString(13, u.id());
            ps.executeUpdate();
        }
    }

    /** Soft delete; returns whether there was such a live product. */
    boolean delete(Connection c, String accountId, String id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE products SET deleted = true, updated_at = ? WHERE account_id = ? AND id = ? AND NOT deleted")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setString(2, accountId);
            ps.setString(3, id);
            return ps.executeUpdate() > 0;
        }
    }

    /** What sales need to know about a product. */
    public record Product(String id, String name, String tag, String sku, String categoryId, boolean recurring,
                          List<String> packages, BigDecimal customCost, BigDecimal price) {
    }

    /** {@code "Blue Widget (XL)"} → {@code "$blue-widget-xl"}. */
    public static String deriveTag(String name) {
        String slug = name.trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}]+", "-").replaceAll("^-+|-+$", "");
        return "$" + (slug.isEmpty() ? "product" : slug);
    }

    /** A sale tag as written by a client: {@code $} added when no prefix is present. */
    public static String saleTag(String tag) {
        return SaleTags.of(tag);
    }

    public Optional<Product> byTag(Connection c, String accountId, String tag) throws SQLException {
        return one(c, "SELECT * FROM products WHERE account_id = ? AND lower(tag) = lower(?) AND NOT deleted", accountId, tag);
    }

    public Optional<Product> byName(Connection c, String accountId, String name) throws SQLException {
        return one(c, "SELECT * FROM products WHERE account_id = ? AND lower(name) = lower(?) AND NOT deleted ORDER BY created_at LIMIT 1",
                accountId, name);
    }

    public Optional<Product> byId(Connection c, String accountId, String id) throws SQLException {
        return one(c, "SELECT * FROM products WHERE account_id = ? AND id = ? AND NOT deleted", accountId, id);
    }

    /** Inserts a product with exactly {@code tag}; the caller has checked the tag is free. */
    public String insert(Connection c, String accountId, String name, String tag, String sku, BigDecimal price,
                         String categoryId, List<String> packages, Instant now) throws SQLException {
        String id = RequestIds.next("prd_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO products (account_id, id, name, tag, sku, price, category_id, packages, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, name);
            ps.setString(4, tag);
            ps.setString(5, sku);
            ps.setBigDecimal(6, price);
            ps.setString(7, categoryId);
            ps.setArray(8, c.createArrayOf("text", packages.toArray()));
            ps.setTimestamp(9, Timestamp.from(now));
            ps.setTimestamp(10, Timestamp.from(now));
            ps.executeUpdate();
        }
        return id;
    }

    /** A product an order item names: by its tag when it has one, else by its exact name. */
    public record ItemRef(String accountId, String name, String tag) {

        /** The lock taken to create this product: keyed by the tag it has or would get, so a tag and a name deriving it meet. */
        public String lockName() {
            return "product:" + accountId + ":" + (tag != null ? saleTag(tag) : deriveTag(name)).toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The creation locks ({@link ItemRef#lockName}) of the products among {@code refs} that do not exist yet, read in one
     * statement without a lock: the worker takes a batch's all at once, in one order, before applying it
     * ({@code GroupApply.lockAhead}), so orders naming existing products never wait for each other.
     */
    public List<String> missingLocks(Connection c, List<ItemRef> refs) throws SQLException {
        List<ItemRef> distinct = List.copyOf(new java.util.LinkedHashSet<>(refs));
        List<String> out = new java.util.ArrayList<>();
        if (distinct.isEmpty()) {
            return out;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                SELECT u.i FROM unnest(?::text[], ?::text[], ?::text[]) WITH ORDINALITY AS u(account_id, tag, name, i)
                WHERE NOT EXISTS (SELECT 1 FROM products p WHERE p.account_id = u.account_id AND NOT p.deleted
                    AND ((u.tag IS NOT NULL AND lower(p.tag) = lower(u.tag)) OR (u.tag IS NULL AND lower(p.name) = lower(u.name))))""")) {
            ps.setArray(1, c.createArrayOf("text", distinct.stream().map(ItemRef::accountId).toArray()));
            ps.setArray(2, c.createArrayOf("text", distinct.stream().map(r -> r.tag() == null ? null : saleTag(r.tag())).toArray()));
            ps.setArray(3, c.createArrayOf("text", distinct.stream().map(ItemRef::name).toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(distinct.get(rs.getInt(1) - 1).lockName());
                }
            }
        }
        return out;
    }

    /**
     * The product an order item names: by its tag when it has one (created with that tag when absent), else by
     * exact name (created with a tag derived from the name, suffixed {@code -2}, {@code -3}… when taken). Looked up
     * without a lock; only a missing product is looked up again under its creation lock and created.
     */
    public Product forItem(Connection c, String accountId, String name, String tag, String sku, BigDecimal unitPrice,
                           String categoryName, List<String> packages, Instant now) throws SQLException {
        Optional<Product> existing = find(c, accountId, name, tag);
        if (existing.isPresent()) {
            return existing.get();
        }
        // Orders applied at once that name the same new product: the first creates it, the others wait here for its
        // commit and then find it (without the lock both inserted and one order FAILED on products_tag). Keyed by the
        // tag the product has or would get, so a tag and a name that derives it wait for each other too. The worker
        // took this lock already when the product was missing before the batch ({@link #missingLocks}); a deadlock
        // between two orders' items otherwise is retried by the worker like any other.
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext(?))")) {
            ps.setString(1, new ItemRef(accountId, name, tag).lockName());
            ps.execute();
        }
        Optional<Product> found = find(c, accountId, name, tag);
        if (found.isPresent()) {
            return found.get();
        }
        String newTag = tag != null ? saleTag(tag) : freeTag(c, accountId, deriveTag(name));
        String categoryId = Categories.idFor(c, accountId, categoryName, now);
        String id = insert(c, accountId, name, newTag, sku, unitPrice, categoryId, packages, now);
        return byId(c, accountId, id).orElseThrow();
    }

    private Optional<Product> find(Connection c, String accountId, String name, String tag) throws SQLException {
        return tag != null ? byTag(c, accountId, saleTag(tag)) : byName(c, accountId, name);
    }

    private String freeTag(Connection c, String accountId, String base) throws SQLException {
        String tag = base;
        for (int i = 2; byTag(c, accountId, tag).isPresent(); i++) {
            tag = base + "-" + i;
        }
        return tag;
    }

    private static Optional<Product> one(Connection c, String sql, String... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setString(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                java.sql.Array packages = rs.getArray("packages");
                return Optional.of(new Product(rs.getString("id"), rs.getString("name"), rs.getString("tag"),
                        rs.getString("sku"), rs.getString("category_id"), rs.getBoolean("recurring"),
                        packages == null ? List.of() : List.of((String[]) packages.getArray()), rs.getBigDecimal("custom_cost"),
                        rs.getBigDecimal("price")));
            }
        }
    }

    /** A product written whole (the demo seed's catalog), its tag and category given. */
    public record Bulk(String accountId, String id, String name, String tag, String sku, BigDecimal price, boolean recurring,
                       boolean callProduct, String categoryId, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts products in one batch (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO products (account_id, id, name, tag, sku, price, recurring, call_product, category_id,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.name(), r.tag(), r.sku(), r.price(), r.recurring(), r.callProduct(),
                        r.categoryId(), r.createdAt(), r.updatedAt()});
    }
}
