package dev.attribution.command.products;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.Categories;
import dev.attribution.command.products.ProductCommands.CreateProduct;
import dev.attribution.command.products.ProductCommands.DeleteProduct;
import dev.attribution.command.products.ProductCommands.UpdateProduct;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.sales.SalesTable;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/** The product commands applied: CREATE_PRODUCT, UPDATE_PRODUCT and DELETE_PRODUCT; results in GET shape. */
final class ProductHandlers {

    private ProductHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateProduct> {
        private final ProductCatalog catalog;
        private final RecordViews views;

        Create(ProductCatalog catalog, RecordViews views) {
            this.catalog = catalog;
            this.views = views;
        }

        @Override
        public Class<CreateProduct> commandType() {
            return CreateProduct.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateProduct p) throws SQLException {
            String tag = ProductCatalog.deriveTag(p.name());
            if (catalog.byTag(c, w.accountId(), tag).isPresent()) {
                throw new WriteFailure(String.format(ProductRules.TAG_TAKEN, tag));
            }
            String categoryId = Categories.idFor(c, w.accountId(), p.category(), w.acceptedAt());
            String id = catalog.insert(c, w.accountId(), p.name(), tag, null, p.price(), categoryId,
                    p.packages() == null ? java.util.List.of() : p.packages().values(), w.acceptedAt());
            return JsonBody.mapper().valueToTree(views.product(c, w.accountId(), id).orElseThrow());
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateProduct> {
        private final ProductCatalog catalog;
        private final RecordViews views;
        private final SalesTable sales;

        Update(ProductCatalog catalog, RecordViews views, SalesTable sales) {
            this.sales = sales;
            this.catalog = catalog;
            this.views = views;
        }

        @Override
        public Class<UpdateProduct> commandType() {
            return UpdateProduct.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateProduct u) throws SQLException {
            String accountId = w.accountId();
            ProductCatalog.Product stored = catalog.byId(c, accountId, u.id())
                    .orElseThrow(() -> new WriteFailure(ProductRules.NOT_FOUND));
            if (u.tag() != null) {
                catalog.byTag(c, accountId, u.tag()).filter(other -> !other.id().equals(u.id())).ifPresent(other -> {
                    throw new WriteFailure(String.format(ProductRules.TAG_TAKEN, u.tag()));
                });
            }
            boolean recurring = u.isRecurringSale() != null ? u.isRecurringSale() : stored.recurring();
            Instant now = w.acceptedAt();
            catalog.update(c, accountId, u, recurring, Categories.idFor(c, accountId, u.category(), now), now);
            if (Boolean.TRUE.equals(u.updateHistoricalSales()) && u.customCost() != null) {
                sales.costOfGoods(c, accountId, u.id(), u.customCost(), now);
            }
            return JsonBody.mapper().valueToTree(views.product(c, accountId, u.id()).orElseThrow());
        }
    }

    @Singleton
    static class Delete implements CommandHandler<DeleteProduct> {
        private final ProductCatalog catalog;

        Delete(ProductCatalog catalog) {
            this.catalog = catalog;
        }

        @Override
        public Class<DeleteProduct> commandType() {
            return DeleteProduct.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, DeleteProduct d) throws SQLException {
            if (!catalog.delete(c, w.accountId(), d.id(), w.acceptedAt())) {
                throw new WriteFailure(ProductRules.NOT_FOUND);
            }
            return null;
        }
    }
}
