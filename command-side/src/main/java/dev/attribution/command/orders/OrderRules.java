package dev.attribution.command.orders;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Account;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * The rules of order writes (spec 4.2), each message written once: a bound body becomes its command ({@link OrderInput}
 * for the order lines), as {@code CartRules} does for carts; the controller hands it to the request log.
 * Writes of one order share a lane ({@link #lane}), so an update or refund is applied after the order it names.
 */
public final class OrderRules {

    static final int MAX_IPS = 3;

    private OrderRules() {
    }

    /** {@code POST /orders}: the orderId is generated when not sent. */
    static PlaceOrder create(OrderCreateBody body, Account account) {
        String orderId = Optional.ofNullable(PersonFields.nonBlank(body.orderId())).map(OrderInput::orderId)
                .orElseGet(() -> RequestIds.next("ord-"));
        PersonFields person = PersonFields.checked(body.person(), true, true, MAX_IPS);
        String parentEmail = PersonFields.nonBlank(body.parentEmail());
        if (parentEmail != null) {
            CommerceInput.checkEmail("parentEmail", parentEmail);
        }
        String sentDate = PersonFields.nonBlank(body.date());
        String date = sentDate == null ? null : ApiDates.parseWrite(sentDate).toString();
        OrderInput.Lines l = OrderInput.lines(body, account.currency());
        return new PlaceOrder(orderId, person, parentEmail, PersonFields.nonBlank(body.cartId()),
                PersonFields.nonBlank(body.externalSubscriptionId()), date,
                l.format(), l.currency(), l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
    }

    /** {@code PUT /orders/{id}}: items replace the order's sales; an omitted hardCost keeps the stored one. */
    static UpdateOrder update(String id, OrderUpdateBody body, Account account) {
        OrderInput.Lines l = OrderInput.lines(body, account.currency());
        return new UpdateOrder(id, PersonFields.nonBlank(body.integrationType()), PersonFields.nonBlank(body.stage()),
                PersonFields.nonBlank(body.cartId()), PersonFields.nonBlank(body.externalSubscriptionId()), l.format(), l.currency(),
                l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
    }

    /** {@code DELETE /orders/{id}}: a refund; {@code refundedAmount} (text, may be absent) is spread over the sales. */
    static RefundOrder refund(String id, String refundedAmount) {
        return new RefundOrder(id, refundedAmount == null ? null : amount("refundedAmount", refundedAmount));
    }

    /** The ordering key of every write naming order {@code orderId}. */
    static String lane(String orderId) {
        return "order:" + orderId;
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
