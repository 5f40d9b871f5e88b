package dev.attribution.command.orders;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;
import dev.attribution.command.requests.Commands;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The rules of order writes (spec 4.2), turning a bound body into its command ({@link OrderInput} for the order
 * lines), and their hand-over to the request log.
 * Writes of one order share a lane ({@code order:<id>}), so an update or refund is applied after the order it names.
 */
@Singleton
public class OrderWrites {

    public static final int MAX_IPS = 3;

    private final Commands commands;
    private final Blacklist blacklist;

    public OrderWrites(Commands commands, Blacklist blacklist) {
        this.commands = commands;
        this.blacklist = blacklist;
    }

    /** {@code POST /orders}. */
    public CompletableFuture<String> create(Caller caller, OrderCreateBody body) {
        String orderId = Optional.ofNullable(PersonFields.nonBlank(body.orderId())).map(OrderInput::orderId)
                .orElseGet(() -> RequestIds.next("ord-"));
        PersonFields person = PersonFields.checked(body.person(), true, true, MAX_IPS);
        String parentEmail = PersonFields.nonBlank(body.parentEmail());
        if (parentEmail != null) {
            CommerceInput.checkEmail("parentEmail", parentEmail);
        }
        String sentDate = PersonFields.nonBlank(body.date());
        String date = sentDate == null ? null : ApiDates.parseWrite(sentDate).toString();
        OrderInput.Lines l = OrderInput.lines(body, caller.account().currency());
        PlaceOrder order = new PlaceOrder(orderId, person, parentEmail, PersonFields.nonBlank(body.cartId()),
                PersonFields.nonBlank(body.externalSubscriptionId()), date,
                l.format(), l.currency(), l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
        blacklist.check(caller.accountId(), person.email(), person.phoneNumbers().values());
        if (parentEmail != null) {
            blacklist.checkEmail(caller.accountId(), parentEmail);
        }
        return commands.submit(caller.accountId(), "order:" + orderId, order);
    }

    /** {@code PUT /orders/{id}}: items replace the order's sales; an omitted hardCost keeps the stored one. */
    public CompletableFuture<String> update(Caller caller, String id, OrderUpdateBody body) {
        OrderInput.Lines l = OrderInput.lines(body, caller.account().currency());
        UpdateOrder update = new UpdateOrder(id, PersonFields.nonBlank(body.integrationType()), PersonFields.nonBlank(body.stage()),
                PersonFields.nonBlank(body.cartId()), PersonFields.nonBlank(body.externalSubscriptionId()), l.format(), l.currency(),
                l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
        return commands.submit(caller.accountId(), "order:" + id, update);
    }

    /** {@code DELETE /orders/{id}}: a refund; {@code refundedAmount} is spread over the sales. */
    public CompletableFuture<String> refund(Caller caller, String id, String refundedAmount) {
        RefundOrder refund = new RefundOrder(id, refundedAmount == null ? null : amount("refundedAmount", refundedAmount));
        return commands.submit(caller.accountId(), "order:" + id, refund);
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
