package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** The body of {@code POST /orders} (spec 4.3). */
public record OrderCreateBody(
        @JsonPropertyDescription("your order id (default: generated)") String orderId,
        @JsonUnwrapped dev.attribution.command.commerce.PersonFields person,
        @JsonPropertyDescription("email of the paying parent lead") String parentEmail,
        String cartId,
        String externalSubscriptionId,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        @JsonUnwrapped OrderLines lines) {
}
