package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.products.ProductCatalog;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The sale a {@code $} tag generates (spec 3.2, 4.1): when a lead receives a sale tag it did not already hold and a
 * product carries that tag, one sale of that product at its price, in the account's currency, dated {@code tagsDate}
 * (backdated when sent). Lead writes call it inside their transaction, once per newly applied {@code $} tag.
 */
@Singleton
public class TagSales {

    private final ProductCatalog products;
    private final OrderHandlers orders;

    public TagSales(ProductCatalog products, OrderHandlers orders) {
        this.products = products;
        this.orders = orders;
    }

    /**
     * Creates the sale when a live product has {@code tag}; returns the request-status shaped array of the new
     * order's sales, or empty when no product has the tag. Records {@code sale.attributed}.
     */
    public Optional<JsonNode> saleForTag(Connection c, Account account, String leadId, String tag, Instant tagsDate, Instant now)
            throws SQLException {
        if (tag == null || !tag.startsWith("$")) {
            return Optional.empty();
        }
        Optional<ProductCatalog.Product> product = products.byTag(c, account.id(), tag);
        if (product.isEmpty()) {
            return Optional.empty();
        }
        ProductCatalog.Product p = product.get();
        OrderCommands.OrderItem item = new OrderCommands.OrderItem(p.name(), p.price(), null, null, null, 1, null, null,
                p.tag(), null, false, List.of());
        OrderCommands.PlaceOrder order = new OrderCommands.PlaceOrder("tag-" + RequestIds.next(), null, null, null, null,
                (tagsDate == null ? now : tagsDate).toString(), Money.Format.DECIMAL, null, null, null, null, null, List.of(item));
        return Optional.of(orders.createFor(c, account, now, order, leadId, leadId));
    }
}
