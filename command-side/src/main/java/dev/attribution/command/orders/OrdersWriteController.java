package dev.attribution.command.orders;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.Envelopes;
import dev.attribution.api.CommandJson;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.orders.OrderCommands.PlaceOrder;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.concurrent.CompletableFuture;

/** Order writes of spec 4.2. */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/orders")
class OrdersWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final WriteAcceptance acceptance;

    OrdersWriteController(Commands commands, Blacklist blacklist, WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = OrderCreateBody.class, example = """
            {"email": "ada@example.com", "items": [{"name": "Analytical Engine manual", "price": 49.5}]}""")
    @Operation(summary = "Record an order and its sales (asynchronous).")
    @RequiresRole(Roles.CREATE_ORDERS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> place(caller, OrderRules.create(CommandJson.bind(body, OrderCreateBody.class), caller.account())));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = OrderUpdateBody.class, example = """
            {"items": [{"name": "Analytical Engine manual", "price": 44.5}]}""")
    @Operation(summary = "Update an order (asynchronous).")
    @RequiresRole(Roles.UPDATE_ORDERS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(@PathVariable String id, @Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> commands.submit(caller.accountId(), OrderRules.lane(id),
                OrderRules.update(id, CommandJson.bind(body, OrderUpdateBody.class), caller.account())));
    }

    @Delete("/{id}")
    @Operation(summary = "Refund an order, wholly or by an amount (asynchronous).")
    @RequiresRole(Roles.DELETE_ORDERS)
    @QueryParameters(RefundQuery.class)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> refund(@PathVariable String id, QueryParams q, Caller caller) {
        String amount = q.string("refundedAmount").orElse(null);
        return acceptance.accept(() -> commands.submit(caller.accountId(), OrderRules.lane(id), OrderRules.refund(id, amount)));
    }

    private CompletableFuture<String> place(Caller caller, PlaceOrder order) {
        blacklist.check(caller.accountId(), order.person().email(), order.person().phoneNumbers().values());
        if (order.parentEmail() != null) {
            blacklist.checkEmail(caller.accountId(), order.parentEmail());
        }
        return commands.submit(caller.accountId(), OrderRules.lane(order.orderId()), order);
    }

    interface RefundQuery extends QueryParameter {
        Spec refundedAmount = Spec.string("refunded amount, a plain number (default: the whole order)");
    }
}
