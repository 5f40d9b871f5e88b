package dev.attribution.command.orders;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.requests.WriteRequestLog;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.concurrent.CompletableFuture;

/**
 * Validation of order writes (spec 4.2) and their hand-over to the request log. Writes of one order share a lane
 * ({@code order:<id>}), so an update or refund is applied after the order it names.
 */
@Singleton
public class OrderWrites {

    public static final int MAX_IPS = 3;

    private final WriteRequestLog log;
    private final Blacklist blacklist;

    public OrderWrites(WriteRequestLog log, Blacklist blacklist) {
        this.log = log;
        this.blacklist = blacklist;
    }

    /** {@code POST /orders}. */
    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        String orderId = body.nonBlankString("orderId").map(OrderInput::orderId).orElseGet(() -> RequestIds.next("ord-"));
        payload.put("orderId", orderId);
        CommerceInput.copyPerson(body, payload, true, true, MAX_IPS);
        body.nonBlankString("parentEmail").ifPresent(e -> payload.put("parentEmail", CommerceInput.checkEmail("parentEmail", e)));
        body.nonBlankString("cartId").ifPresent(v -> payload.put("cartId", v));
        body.nonBlankString("externalSubscriptionId").ifPresent(v -> payload.put("externalSubscriptionId", v));
        CommerceInput.copyDate(body, payload, "date");
        OrderInput.copyOrder(body, payload, caller.account().currency());
        CommerceInput.checkBlacklist(blacklist, caller.accountId(), payload);
        return log.submit(caller.accountId(), "CREATE_ORDER", "order:" + orderId, payload);
    }

    /** {@code PUT /orders/{id}}: items replace the order's sales; an omitted hardCost keeps the stored one. */
    public CompletableFuture<String> update(Caller caller, String id, JsonBody body) {
        ObjectNode payload = JsonBody.mapper().createObjectNode().put("id", id);
        body.nonBlankString("integrationType").ifPresent(v -> payload.put("integrationType", v));
        body.nonBlankString("stage").ifPresent(v -> payload.put("stage", v));
        body.nonBlankString("cartId").ifPresent(v -> payload.put("cartId", v));
        body.nonBlankString("externalSubscriptionId").ifPresent(v -> payload.put("externalSubscriptionId", v));
        OrderInput.copyOrder(body, payload, caller.account().currency());
        return log.submit(caller.accountId(), "UPDATE_ORDER", "order:" + id, payload);
    }

    /** {@code DELETE /orders/{id}}: a refund; {@code refundedAmount} is spread over the sales. */
    public CompletableFuture<String> refund(Caller caller, String id, String refundedAmount) {
        ObjectNode payload = JsonBody.mapper().createObjectNode().put("id", id);
        if (refundedAmount != null) {
            payload.put("refundedAmount", amount("refundedAmount", refundedAmount).toPlainString());
        }
        return log.submit(caller.accountId(), "REFUND_ORDER", "order:" + id, payload);
    }

    /** A non-negative decimal sent as text (query parameters). */
    public static BigDecimal amount(String field, String text) {
        try {
            BigDecimal v = new BigDecimal(text.trim());
            if (v.signum() < 0) {
                throw ApiException.badRequest(field + " must not be negative");
            }
            if (v.compareTo(Money.MAX_AMOUNT) > 0) {
                throw ApiException.badRequest(field + " is above the maximum allowed amount");
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("Invalid " + field + ": " + text);
        }
    }
}
