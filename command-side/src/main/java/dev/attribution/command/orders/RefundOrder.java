package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.command.commerce.ItemJson;

import java.math.BigDecimal;

/**
 * {@code DELETE /orders/{id}} (REFUND_ORDER): a refund of the whole order, or of {@code refundedAmount} spread over
 * its sales (a non-negative decimal, {@link OrderRules#amount}; earlier versions stored it as a string).
 */
public record RefundOrder(String id, @JsonDeserialize(using = ItemJson.Stored.class) BigDecimal refundedAmount) {
}
