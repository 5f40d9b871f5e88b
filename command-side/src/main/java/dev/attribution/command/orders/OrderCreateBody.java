package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.BlankIsAbsent;
import dev.attribution.command.commerce.PersonFields;

import java.math.BigDecimal;
import java.util.List;

/** The body of {@code POST /orders} (spec 4.3), bound by {@code CommandJson}; {@link OrderRules#create} checks it. */
public record OrderCreateBody(
        @JsonPropertyDescription("your order id (default: generated)") String orderId,
        @JsonUnwrapped PersonFields person,
        @JsonPropertyDescription("email of the paying parent lead") String parentEmail,
        String cartId,
        String externalSubscriptionId,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        @JsonPropertyDescription("how amounts are written: DECIMAL (default) or INTEGER minor units")
        @BlankIsAbsent Money.Format priceFormat,
        @JsonPropertyDescription("ISO 4217 code (default: the account's currency)") String currency,
        BigDecimal shippingCost,
        BigDecimal taxes,
        BigDecimal orderDiscount,
        @JsonPropertyDescription("kept as stored when omitted on update") BigDecimal hardCost,
        @JsonProperty(required = true)
        @JsonPropertyDescription("the order's items, at least one")
        @JsonDeserialize(using = OrderLines.Items.class) List<OrderLines.Item> items) implements OrderLines.Body {
}
