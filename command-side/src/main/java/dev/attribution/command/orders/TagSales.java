package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.WriteHandler;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
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
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        payload.put("priceFormat", "DECIMAL");
        payload.put("date", (tagsDate == null ? now : tagsDate).toString());
        ObjectNode item = payload.putArray("items").addObject();
        item.put("name", p.name());
        item.put("tag", p.tag());
        item.put("price", p.price().toPlainString());
        item.put("quantity", 1);
        item.putArray("packages");
        String orderId = "tag-" + RequestIds.next();
        WriteHandler.Write write = new WriteHandler.Write(orderId, account, payload, now);
        return Optional.of(orders.createFor(c, write, orderId, leadId, leadId));
    }
}
