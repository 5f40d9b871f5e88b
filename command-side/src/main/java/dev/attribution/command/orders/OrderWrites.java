package dev.attribution.command.orders;

import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.IpAddresses;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.StringOrList;
import dev.attribution.api.auth.Caller;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.commerce.CommerceInput;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.orders.OrderCommands.UpdateOrder;
import dev.attribution.command.requests.Commands;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The rules of order writes (spec 4.2), turning a body into its command, and their hand-over to the request log.
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
    public CompletableFuture<String> create(Caller caller, JsonBody body) {
        String orderId = body.nonBlankString("orderId").map(OrderInput::orderId).orElseGet(() -> RequestIds.next("ord-"));
        PersonFields person = person(body);
        String parentEmail = body.nonBlankString("parentEmail").map(e -> CommerceInput.checkEmail("parentEmail", e))
                .orElse(null);
        String cartId = body.nonBlankString("cartId").orElse(null);
        String subscription = body.nonBlankString("externalSubscriptionId").orElse(null);
        String date = body.nonBlankString("date").map(d -> ApiDates.parseWrite(d).toString()).orElse(null);
        OrderInput.Lines l = OrderInput.lines(body, caller.account().currency());
        PlaceOrder order = new PlaceOrder(orderId, person, parentEmail, cartId, subscription, date, l.format(), l.currency(),
                l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
        blacklist.check(caller.accountId(), person.email(), person.phoneNumbers().values());
        if (parentEmail != null) {
            blacklist.checkEmail(caller.accountId(), parentEmail);
        }
        return commands.submit(caller.accountId(), "order:" + orderId, order);
    }

    /** {@code PUT /orders/{id}}: items replace the order's sales; an omitted hardCost keeps the stored one. */
    public CompletableFuture<String> update(Caller caller, String id, JsonBody body) {
        String integrationType = body.nonBlankString("integrationType").orElse(null);
        String stage = body.nonBlankString("stage").orElse(null);
        String cartId = body.nonBlankString("cartId").orElse(null);
        String subscription = body.nonBlankString("externalSubscriptionId").orElse(null);
        OrderInput.Lines l = OrderInput.lines(body, caller.account().currency());
        UpdateOrder update = new UpdateOrder(id, integrationType, stage, cartId, subscription, l.format(), l.currency(),
                l.shippingCost(), l.taxes(), l.orderDiscount(), l.hardCost(), l.items());
        return commands.submit(caller.accountId(), "order:" + id, update);
    }

    /** {@code DELETE /orders/{id}}: a refund; {@code refundedAmount} is spread over the sales. */
    public CompletableFuture<String> refund(Caller caller, String id, String refundedAmount) {
        RefundOrder refund = new RefundOrder(id, refundedAmount == null ? null : amount("refundedAmount", refundedAmount));
        return commands.submit(caller.accountId(), "order:" + id, refund);
    }

    /**
     * The buyer ({@code CommerceInput#copyPerson} rules: email or phones required, email checked, at most
     * {@link #MAX_IPS} IPs), read from the body as the earlier versions did, each message the same.
     */
    private static PersonFields person(JsonBody body) {
        Optional<String> email = body.nonBlankString("email");
        List<String> phones = body.stringOrList("phoneNumbers").orElse(List.of());
        if (email.isEmpty() && phones.isEmpty()) {
            throw ApiException.badRequest(CommerceInput.EMAIL_OR_PHONE);
        }
        email.ifPresent(e -> CommerceInput.checkEmail("email", e));
        String firstName = body.nonBlankString("firstName").orElse(null);
        String lastName = body.nonBlankString("lastName").orElse(null);
        List<String> ips = IpAddresses.checked("leadIps", body.stringOrList("leadIps").orElse(List.of()));
        if (ips.size() > MAX_IPS) {
            throw ApiException.badRequest("The maximum number of leadIps is " + MAX_IPS);
        }
        String stage = body.nonBlankString("stage").orElse(null);
        return new PersonFields(email.orElse(null), new StringOrList(phones), firstName, lastName,
                new StringOrList(ips), stage);
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
