package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.BlankIsAbsent;

import java.math.BigDecimal;
import java.util.List;

/**
 * The body of {@code PUT /orders/{id}}: the items replace the order's sales (spec 4.3); bound by {@code CommandJson},
 * checked by {@link OrderRules#update}.
 */
public record OrderUpdateBody(
        String integrationType,
        @JsonPropertyDescription("lead stage name to apply") String stage,
        String cartId,
        String externalSubscriptionId,
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
