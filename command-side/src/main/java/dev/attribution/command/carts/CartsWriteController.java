package dev.attribution.command.carts;

import dev.attribution.api.CommandJson;
import dev.attribution.api.Envelopes;
import dev.attribution.api.NodeSide;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.ServedBy;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.carts.CartCommands.SaveCart;
import dev.attribution.command.commerce.PersonFields;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Cart writes of spec 4.12; {@code PUT /carts} (no role named by the spec) takes the create role. */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/carts")
class CartsWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final WriteAcceptance acceptance;

    CartsWriteController(Commands commands, Blacklist blacklist, WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CartBody.class, example = """
            {"cartId": "cart-1001", "email": "ada@example.com", "items": [{"name": "Analytical Engine manual", "price": 49.5, "quantity": 1}]}""")
    @Operation(summary = "Create a cart and, if absent, its lead (asynchronous).")
    @RequiresRole(Roles.CREATE_CARTS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> submit(caller, CartRules.create(CommandJson.bind(body, CartBody.class), caller.account())));
    }

    @Put(consumes = MediaType.ALL)
    @RequestBodyType(value = CartBody.class, example = """
            {"cartId": "cart-1001", "email": "ada@example.com", "items": [{"name": "Analytical Engine manual", "price": 49.5, "quantity": 2}]}""")
    @Operation(summary = "Update a cart by cartId (asynchronous).")
    @RequiresRole(Roles.CREATE_CARTS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> submit(caller, CartRules.update(CommandJson.bind(body, CartBody.class), caller.account())));
    }

    private CompletableFuture<String> submit(Caller caller, SaveCart cart) {
        PersonFields p = cart.person();
        if (p != null) {
            blacklist.check(caller.accountId(), p.email(), p.phoneNumbers() == null ? List.of() : p.phoneNumbers().values());
        }
        return commands.submit(caller.accountId(), CartRules.lane(cart), (Record) cart);
    }
}
