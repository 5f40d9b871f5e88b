package dev.attribution.command.carts;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.command.commerce.ItemJson;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.Money;

import java.math.BigDecimal;
import java.util.List;

/**
 * The cart commands (spec 4.12), checked by {@link CartRules}: the cart id (generated on create when not sent), the
 * person, the date as an ISO instant, the currency and the items with their amounts in decimal. Stored as the
 * earlier versions' payload was (which wrote amounts as strings: {@link ItemJson.Stored}).
 */
public final class CartCommands {

    private CartCommands() {
    }

    /** What both cart writes carry. */
    public sealed interface SaveCart permits CreateCart, UpdateCart {
        String cartId();

        PersonFields person();

        String date();

        String currency();

        List<CartItem> items();
    }

    /** {@code POST /carts} (CREATE_CART): the same cartId again replaces the cart's items. */
    public record CreateCart(String cartId, @JsonUnwrapped PersonFields person, String date, Money.Format priceFormat,
                             String currency, List<CartItem> items) implements SaveCart {
    }

    /** {@code PUT /carts} (UPDATE_CART): as a create, of a cart that must exist. */
    public record UpdateCart(String cartId, @JsonUnwrapped PersonFields person, String date, Money.Format priceFormat,
                             String currency, List<CartItem> items) implements SaveCart {
    }

    /** One checked item: its price in decimal, quantity 1 when not sent. */
    public record CartItem(String name, @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal price, int quantity,
                           String externalId, String sku, boolean isRebill) {
    }
}
