package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** The body of {@code PUT /orders/{id}}: the items replace the order's sales (spec 4.3). */
public record OrderUpdateBody(
        String integrationType,
        @JsonPropertyDescription("lead stage name to apply") String stage,
        String cartId,
        String externalSubscriptionId,
        @JsonUnwrapped OrderLines lines) {
}
