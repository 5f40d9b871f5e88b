package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.command.commerce.ItemJson;
import dev.attribution.command.commerce.PersonFields;

import java.math.BigDecimal;
import java.util.List;

/**
 * The order commands (spec 4.2), checked by {@link OrderInput} and {@link OrderRules}: amounts as sent, in
 * {@code priceFormat}, converted to minor units once the currency is known ({@link OrderInput#items},
 * {@link OrderInput#totals}). Stored as the earlier versions' payloads were, which wrote amounts as strings
 * ({@link ItemJson.Stored}). Flat, not {@code @JsonUnwrapped} order lines: Jackson 2.21 cannot read a number inside
 * an unwrapped record of a record creator.
 */
public final class OrderCommands {

    private OrderCommands() {
    }

    /** What placing and updating an order carry: the order's amounts and items. */
    public sealed interface OrderContent permits PlaceOrder, UpdateOrder {
        /** null in payloads of early versions: DECIMAL. */
        Money.Format priceFormat();

        /** The currency sent, or null (a new order: the account's; an update: the order's). */
        String currency();

        BigDecimal shippingCost();

        BigDecimal taxes();

        BigDecimal orderDiscount();

        /** null: none on a new order, the stored one on an update. */
        BigDecimal hardCost();

        List<OrderItem> items();

        default String format() {
            return priceFormat() == null ? Money.Format.DECIMAL.name() : priceFormat().name();
        }
    }

    /** {@code POST /orders} (CREATE_ORDER): the same orderId with the same content again is a no-op. */
    public record PlaceOrder(String orderId, @JsonUnwrapped PersonFields person, String parentEmail, String cartId,
                             String externalSubscriptionId, String date, Money.Format priceFormat, String currency,
                             @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal shippingCost,
                             @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal taxes,
                             @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal orderDiscount,
                             @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal hardCost,
                             List<OrderItem> items) implements OrderContent {
    }

    /** {@code PUT /orders/{id}} (UPDATE_ORDER): the items replace the order's sales. */
    public record UpdateOrder(String id, String integrationType, String stage, String cartId, String externalSubscriptionId,
                              Money.Format priceFormat, String currency,
                              @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal shippingCost,
                              @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal taxes,
                              @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal orderDiscount,
                              @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal hardCost,
                              List<OrderItem> items) implements OrderContent {
    }

    /** One checked item: a sale. Amounts as sent ({@code priceFormat}); quantity 1 when not sent. */
    public record OrderItem(String name,
                            @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal price,
                            @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal costOfGoods,
                            @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal taxes,
                            @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal itemDiscount,
                            Integer quantity, String externalId, String sku, String tag, String categoryName,
                            Boolean isRebill, List<String> packages) {

        int units() {
            return quantity == null ? 1 : quantity;
        }

        boolean rebill() {
            return Boolean.TRUE.equals(isRebill);
        }

        List<String> packageNames() {
            return packages == null ? List.of() : packages;
        }
    }
}
