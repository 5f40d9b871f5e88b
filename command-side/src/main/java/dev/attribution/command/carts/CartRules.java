package dev.attribution.command.carts;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.carts.CartCommands.CartItem;
import dev.attribution.command.carts.CartCommands.CreateCart;
import dev.attribution.command.carts.CartCommands.UpdateCart;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.Money;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The rules of cart writes (spec 4.12), each message written once; what passes is the command as stored. A cart
 * without items is a 400; an invalid email is judged when the request is applied (FAILED), as the spec lists it
 * among the FAILED messages, and so is a total above {@link #MAX_TOTAL}.
 */
final class CartRules {

    static final String NO_ITEMS = "A cart must contain at least one item";
    static final String ITEMS_NOT_OBJECTS = "items must be an array of objects";
    static final String CART_ID_REQUIRED = "Missing required field: cartId";
    static final String TOTAL_TOO_HIGH = "The cart total is above the maximum allowed amount";
    static final String INVALID_EMAIL = "The provided email is invalid";
    static final String NOT_PROCESSABLE = "The cart could not be processed for this account";
    static final String NOT_FOUND = "Cart not found";
    static final int MAX_QUANTITY = 100_000;
    /** Largest cart total accepted when the request is applied. */
    static final BigDecimal MAX_TOTAL = new BigDecimal("99999999.99");

    private CartRules() {
    }

    /** A checked cart of the body, before it is a create or an update. */
    private record Checked(PersonFields person, String date, Money.Format format, String currency, List<CartItem> items) {
    }

    /** {@code POST /carts}: the cartId is generated when not sent. */
    static CreateCart create(CartBody body, Account account) {
        String cartId = PersonFields.nonBlank(body.cartId());
        Checked c = check(body, account);
        return new CreateCart(cartId != null ? cartId : RequestIds.next("crt-"), c.person(), c.date(), c.format(), c.currency(), c.items());
    }

    /** {@code PUT /carts}: the cartId is required. */
    static UpdateCart update(CartBody body, Account account) {
        String cartId = PersonFields.nonBlank(body.cartId());
        if (cartId == null) {
            throw ApiException.badRequest(CART_ID_REQUIRED);
        }
        Checked c = check(body, account);
        return new UpdateCart(cartId, c.person(), c.date(), c.format(), c.currency(), c.items());
    }

    /** The ordering key of a cart write. */
    static String lane(CartCommands.SaveCart cart) {
        return "cart:" + cart.cartId();
    }

    private static Checked check(CartBody body, Account account) {
        PersonFields person = PersonFields.checked(body.person(), false, false, Integer.MAX_VALUE);
        String date = PersonFields.nonBlank(body.date());
        date = date == null ? null : ApiDates.parseWrite(date).toString();
        Money.Format format = body.priceFormat() == null ? Money.Format.DECIMAL : body.priceFormat();
        String sent = PersonFields.nonBlank(body.currency());
        String currency = sent != null ? sent.toUpperCase(Locale.ROOT) : account.currency();
        if (!Money.isCurrency(currency)) {
            throw ApiException.badRequest("Invalid currency: " + currency);
        }
        if (body.items() == null || body.items().isEmpty()) {
            throw ApiException.badRequest(NO_ITEMS);
        }
        List<CartItem> items = new ArrayList<>();
        for (int i = 0; i < body.items().size(); i++) {
            items.add(item(body.items().get(i), "items[" + i + "].", format, currency));
        }
        return new Checked(person, date, format, currency, items);
    }

    private static CartItem item(CartBody.Item item, String prefix, Money.Format format, String currency) {
        String name = PersonFields.nonBlank(item.name());
        if (name == null) {
            throw ApiException.badRequest("Missing required field: " + prefix + "name");
        }
        if (name.length() < 3) {
            throw ApiException.badRequest(prefix + "name must have at least 3 characters");
        }
        if (item.price() == null) {
            throw ApiException.badRequest("Missing required field: " + prefix + "price");
        }
        BigDecimal price = Money.toDecimal(Money.toMinor(prefix + "price", item.price(), format.name(), currency), currency);
        return new CartItem(name, price, item.quantity() == null ? 1 : item.quantity(), PersonFields.nonBlank(item.externalId()),
                PersonFields.nonBlank(item.sku()), Boolean.TRUE.equals(item.isRebill()));
    }
}
