package dev.attribution.command.carts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.command.carts.CartCommands.CartItem;
import dev.attribution.command.carts.CartCommands.CreateCart;
import dev.attribution.command.carts.CartCommands.SaveCart;
import dev.attribution.command.carts.CartCommands.UpdateCart;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.leads.LeadResolver;
import dev.attribution.command.products.ProductCatalog;
import dev.attribution.command.requests.CommandHandler;
import dev.attribution.command.requests.WriteHandler.WriteFailure;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The cart commands applied: CREATE_CART and UPDATE_CART; results in GET shape. The same cartId sent again is not an
 * error: the cart's items are replaced and its {@code events} count grows. A purchased cart is not changed any more.
 */
final class CartHandlers {

    private CartHandlers() {
    }

    @Singleton
    static class Create implements CommandHandler<CreateCart> {
        private final Carts carts;

        Create(Carts carts) {
            this.carts = carts;
        }

        @Override
        public Class<CreateCart> commandType() {
            return CreateCart.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, CreateCart cart) throws SQLException {
            return carts.save(c, w, cart, false);
        }
    }

    @Singleton
    static class Update implements CommandHandler<UpdateCart> {
        private final Carts carts;

        Update(Carts carts) {
            this.carts = carts;
        }

        @Override
        public Class<UpdateCart> commandType() {
            return UpdateCart.class;
        }

        @Override
        public JsonNode handle(Connection c, Applying w, UpdateCart cart) throws SQLException {
            return carts.save(c, w, cart, true);
        }
    }

    /** What both cart commands do. */
    @Singleton
    static class Carts {
        private final CartsTable table;
        private final LeadResolver leads;
        private final ProductCatalog products;
        private final RecordViews views;

        Carts(CartsTable table, LeadResolver leads, ProductCatalog products, RecordViews views) {
            this.table = table;
            this.leads = leads;
            this.products = products;
            this.views = views;
        }

        JsonNode save(Connection c, CommandHandler.Applying w, SaveCart cart, boolean mustExist) throws SQLException {
            String accountId = w.accountId();
            Instant now = w.acceptedAt();
            if (cart.person() != null && cart.person().email() != null && !CommerceInput.isEmail(cart.person().email())) {
                throw new WriteFailure(CartRules.INVALID_EMAIL);
            }
            BigDecimal total = BigDecimal.ZERO;
            for (CartItem item : cart.items()) {
                total = total.add(item.price().multiply(BigDecimal.valueOf(item.quantity())));
            }
            if (total.compareTo(CartRules.MAX_TOTAL) > 0) {
                throw new WriteFailure(CartRules.TOTAL_TOO_HIGH);
            }
            Boolean purchased = table.lockPurchased(c, accountId, cart.cartId());
            if (purchased == null && mustExist) {
                throw new WriteFailure(CartRules.NOT_FOUND);
            }
            if (Boolean.TRUE.equals(purchased)) {
                throw new WriteFailure(CartRules.NOT_PROCESSABLE);
            }
            LeadResolver.Person person = PersonFields.person(cart.person());
            String leadId = person == null ? null : leads.resolve(c, accountId, person, now).id();
            if (purchased == null) {
                Instant date = cart.date() != null ? Instant.parse(cart.date()) : now;
                table.insert(c, accountId, cart.cartId(), leadId, cart.currency(), total, date, now);
            } else {
                table.rewrite(c, accountId, cart.cartId(), leadId, cart.currency(), total, now);
            }
            List<String> productIds = new ArrayList<>();
            for (CartItem item : cart.items()) {
                productIds.add(products.byName(c, accountId, item.name()).map(ProductCatalog.Product::id).orElse(null));
            }
            table.insertItems(c, accountId, cart.cartId(), cart.items(), productIds);
            return JsonBody.mapper().valueToTree(views.cart(c, accountId, w.account().timeZone(), cart.cartId()).get(0));
        }
    }
}
