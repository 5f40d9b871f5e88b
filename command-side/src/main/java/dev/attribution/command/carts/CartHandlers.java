package dev.attribution.command.carts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.DelegatingWriteHandler;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * CREATE_CART and UPDATE_CART. The same cartId sent again is not an error: the cart's items are replaced and its
 * {@code events} count grows. A purchased cart is not changed any more.
 */
@Singleton
public class CartHandlers {

    public static final String TOTAL_TOO_HIGH = "The cart total is above the maximum allowed amount";
    public static final String INVALID_EMAIL = "The provided email is invalid";
    public static final String NOT_PROCESSABLE = "The cart could not be processed for this account";
    public static final String NOT_FOUND = "Cart not found";

    private final LeadResolver leads;
    private final ProductCatalog products;
    private final RecordViews views;

    CartHandlers(LeadResolver leads, ProductCatalog products, RecordViews views) {
        this.leads = leads;
        this.products = products;
        this.views = views;
    }

    @Singleton
    static class Create extends DelegatingWriteHandler {
        Create(CartHandlers carts) {
            super("CREATE_CART", (c, w) -> carts.apply(c, w, false));
        }
    }

    @Singleton
    static class Update extends DelegatingWriteHandler {
        Update(CartHandlers carts) {
            super("UPDATE_CART", (c, w) -> carts.apply(c, w, true));
        }
    }

    JsonNode apply(Connection c, WriteHandler.Write w, boolean mustExist) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        Instant now = w.acceptedAt();
        String cartId = p.get("cartId").asText();
        if (p.hasNonNull("email") && !CommerceInput.isEmail(p.get("email").asText())) {
            throw new WriteHandler.WriteFailure(INVALID_EMAIL);
        }
        BigDecimal total = BigDecimal.ZERO;
        for (JsonNode item : p.get("items")) {
            total = total.add(new BigDecimal(item.get("price").asText()).multiply(BigDecimal.valueOf(item.get("quantity").asInt())));
        }
        if (total.compareTo(CartWrites.MAX_TOTAL) > 0) {
            throw new WriteHandler.WriteFailure(TOTAL_TOO_HIGH);
        }
        Boolean purchased = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT order_id IS NOT NULL FROM carts WHERE account_id = ? AND id = ? FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, cartId);
            try (ResultSet rs = ps.executeQuery()) {
                purchased = rs.next() ? rs.getBoolean(1) : null;
            }
        }
        if (purchased == null && mustExist) {
            throw new WriteHandler.WriteFailure(NOT_FOUND);
        }
        if (Boolean.TRUE.equals(purchased)) {
            throw new WriteHandler.WriteFailure(NOT_PROCESSABLE);
        }
        var person = CommerceInput.person(p);
        String leadId = person == null ? null : leads.resolve(c, accountId, person, now).id();
        Instant date = p.hasNonNull("date") ? Instant.parse(p.get("date").asText()) : now;
        String currency = p.get("currency").asText();
        if (purchased == null) {
            try (PreparedStatement ps = c.prepareStatement("""
                    INSERT INTO carts (account_id, id, lead_id, currency, total, events, cart_date, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?)""")) {
                ps.setString(1, accountId);
                ps.setString(2, cartId);
                ps.setString(3, leadId);
                ps.setString(4, currency);
                ps.setBigDecimal(5, total);
                ps.setTimestamp(6, Timestamp.from(date));
                ps.setTimestamp(7, Timestamp.from(now));
                ps.setTimestamp(8, Timestamp.from(now));
                ps.executeUpdate();
            }
        } else {
            try (PreparedStatement ps = c.prepareStatement("""
                    UPDATE carts SET lead_id = COALESCE(?, lead_id), currency = ?, total = ?, events = events + 1, updated_at = ?
                    WHERE account_id = ? AND id = ?""")) {
                ps.setString(1, leadId);
                ps.setString(2, currency);
                ps.setBigDecimal(3, total);
                ps.setTimestamp(4, Timestamp.from(now));
                ps.setString(5, accountId);
                ps.setString(6, cartId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM cart_items WHERE account_id = ? AND cart_id = ?")) {
                ps.setString(1, accountId);
                ps.setString(2, cartId);
                ps.executeUpdate();
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO cart_items (account_id, cart_id, position, name, price, quantity, external_id, sku, is_rebill, product_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            int position = 0;
            for (JsonNode item : p.get("items")) {
                ps.setString(1, accountId);
                ps.setString(2, cartId);
                ps.setInt(3, position++);
                ps.setString(4, item.get("name").asText());
                ps.setBigDecimal(5, new BigDecimal(item.get("price").asText()));
                ps.setInt(6, item.get("quantity").asInt());
                ps.setString(7, CommerceInput.text(item, "externalId"));
                ps.setString(8, CommerceInput.text(item, "sku"));
                ps.setBoolean(9, item.path("isRebill").asBoolean());
                ps.setString(10, products.byName(c, accountId, item.get("name").asText()).map(ProductCatalog.Product::id).orElse(null));
                ps.addBatch();
            }
            ps.executeBatch();
        }
        return JsonBody.mapper().valueToTree(views.cart(c, accountId, w.account().timeZone(), cartId).get(0));
    }
}
