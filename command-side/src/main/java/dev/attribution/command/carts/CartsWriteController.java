package dev.attribution.command.carts;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

import java.util.concurrent.CompletableFuture;

/** Cart writes of spec 4.12; {@code PUT /carts} (no role named by the spec) takes the create role. */
@Controller("/api/v1.0/carts")
class CartsWriteController {

    private final CartWrites writes;
    private final WriteAcceptance acceptance;

    CartsWriteController(CartWrites writes, WriteAcceptance acceptance) {
        this.writes = writes;
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
        return acceptance.accept(() -> writes.create(caller, JsonBody.parse(body, CartBody.class)));
    }

    @Put(consumes = MediaType.ALL)
    @RequestBodyType(value = CartBody.class, example = """
            {"cartId": "cart-1001", "email": "ada@example.com", "items": [{"name": "Analytical Engine manual", "price": 49.5, "quantity": 2}]}""")
    @Operation(summary = "Update a cart by cartId (asynchronous).")
    @RequiresRole(Roles.CREATE_CARTS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> writes.update(caller, JsonBody.parse(body, CartBody.class)));
    }
}
