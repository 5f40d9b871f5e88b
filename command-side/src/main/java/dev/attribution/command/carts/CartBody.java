package dev.attribution.command.carts;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** The body of {@code POST /carts} and {@code PUT /carts} (cartId required on PUT; spec 4.12). */
public record CartBody(
        @JsonPropertyDescription("your cart id (default on create: generated)") String cartId,
        @JsonUnwrapped dev.attribution.command.commerce.PersonFields person,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        @JsonPropertyDescription("how amounts are written: DECIMAL (default) or INTEGER minor units")
        dev.attribution.command.orders.Money.Format priceFormat,
        @JsonPropertyDescription("ISO 4217 code (default: the account's currency)") String currency,
        @JsonProperty(required = true)
        @JsonPropertyDescription("the cart's items, at least one")
        java.util.List<Item> items) {

    /** One item in a cart. */
    public record Item(
            @JsonProperty(required = true) String name,
            @JsonProperty(required = true) java.math.BigDecimal price,
            @JsonPropertyDescription("default 1") Integer quantity,
            String externalId,
            String sku,
            Boolean isRebill) {
    }
}
