package dev.attribution.command.products;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.Categories;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/** The handlers of CREATE_PRODUCT, UPDATE_PRODUCT and DELETE_PRODUCT. */
@Factory
class ProductHandlers {

    static final String TAG_TAKEN = "A product with the tag '%s' already exists";

    @Singleton
    WriteHandler createProduct(ProductCatalog catalog, RecordViews views) {
        return handler("CREATE_PRODUCT", (c, w) -> {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            String name = p.get("name").asText();
            String tag = ProductCatalog.deriveTag(name);
            if (catalog.byTag(c, accountId, tag).isPresent()) {
                throw new WriteHandler.WriteFailure(String.format(TAG_TAKEN, tag));
            }
            String categoryId = Categories.idFor(c, accountId, CommerceInput.text(p, "category"), w.acceptedAt());
            String id = catalog.insert(c, accountId, name, tag, null, new BigDecimal(p.get("price").asText()), categoryId,
                    CommerceInput.texts(p.get("packages")), w.acceptedAt());
            return JsonBody.mapper().valueToTree(views.product(c, accountId, id).orElseThrow());
        });
    }

    @Singleton
    WriteHandler updateProduct(ProductCatalog catalog, RecordViews views) {
        return handler("UPDATE_PRODUCT", (c, w) -> {
            JsonNode p = w.payload();
            String accountId = w.account().id();
            String id = p.get("id").asText();
            ProductCatalog.Product stored = catalog.byId(c, accountId, id)
                    .orElseThrow(() -> new WriteHandler.WriteFailure(ProductWrites.NOT_FOUND));
            if (p.has("tag")) {
                catalog.byTag(c, accountId, p.get("tag").asText()).filter(other -> !other.id().equals(id)).ifPresent(other -> {
                    throw new WriteHandler.WriteFailure(String.format(TAG_TAKEN, p.get("tag").asText()));
                });
            }
            boolean recurring = p.has("recurring") ? p.get("recurring").asBoolean() : stored.recurring();
            Instant now = w.acceptedAt();
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE products SET name = COALESCE(?, name), price = COALESCE(?, price), custom_cost = COALESCE(?, custom_cost),
                           tag = COALESCE(?, tag), sku = COALESCE(?, sku), recurring = ?, call_product = COALESCE(?, call_product),
                           category_id = CASE WHEN ? THEN ? ELSE category_id END,
                           packages = COALESCE(?, packages), updated_at = ?
                    WHERE account_id = ? AND id = ?""")) {
                ps.setString(1, CommerceInput.text(p, "name"));
                ps.setBigDecimal(2, p.has("price") ? new BigDecimal(p.get("price").asText()) : null);
                ps.setBigDecimal(3, p.has("customCost") ? new BigDecimal(p.get("customCost").asText()) : null);
                ps.setString(4, CommerceInput.text(p, "tag"));
                ps.setString(5, CommerceInput.text(p, "sku"));
                ps.setBoolean(6, recurring);
                ps.setObject(7, p.has("callProduct") ? p.get("callProduct").asBoolean() : null);
                ps.setBoolean(8, p.has("category"));
                ps.setString(9, Categories.idFor(c, accountId, CommerceInput.text(p, "category"), now));
                ps.setArray(10, p.has("packages") ? c.createArrayOf("text", CommerceInput.texts(p.get("packages")).toArray()) : null);
                ps.setTimestamp(11, Timestamp.from(now));
                ps.setString(12, accountId);
                ps.setString(13, id);
                ps.executeUpdate();
            }
            if (p.path("updateHistoricalSales").asBoolean() && p.has("customCost")) {
                try (PreparedStatement ps = c.prepareStatement("""
                        UPDATE sales SET cost_of_goods = quantity * ?::numeric, updated_at = ?
                        WHERE account_id = ? AND product_id = ? AND NOT deleted""")) {
                    ps.setBigDecimal(1, new BigDecimal(p.get("customCost").asText()));
                    ps.setTimestamp(2, Timestamp.from(now));
                    ps.setString(3, accountId);
                    ps.setString(4, id);
                    ps.executeUpdate();
                }
            }
            return JsonBody.mapper().valueToTree(views.product(c, accountId, id).orElseThrow());
        });
    }

    @Singleton
    WriteHandler deleteProduct() {
        return handler("DELETE_PRODUCT", (c, w) -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "UPDATE products SET deleted = true, updated_at = ? WHERE account_id = ? AND id = ? AND NOT deleted")) {
                ps.setTimestamp(1, Timestamp.from(w.acceptedAt()));
                ps.setString(2, w.account().id());
                ps.setString(3, w.payload().get("id").asText());
                if (ps.executeUpdate() == 0) {
                    throw new WriteHandler.WriteFailure(ProductWrites.NOT_FOUND);
                }
            }
            return null;
        });
    }

    @FunctionalInterface
    interface Apply {
        JsonNode apply(Connection c, WriteHandler.Write w) throws SQLException;
    }

    static WriteHandler handler(String eventType, Apply apply) {
        return new WriteHandler() {
            @Override
            public String eventType() {
                return eventType;
            }

            @Override
            public JsonNode apply(Connection connection, Write write) throws SQLException {
                return apply.apply(connection, write);
            }
        };
    }
}
