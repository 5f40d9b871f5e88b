package dev.attribution.command.subscriptions;

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

/** Subscription writes (spec 4.13; shapes as the real client sends them). */
@Controller("/api/v1.0/subscriptions")
class SubscriptionsWriteController {

    private final SubscriptionWrites writes;
    private final WriteAcceptance acceptance;

    SubscriptionsWriteController(SubscriptionWrites writes, WriteAcceptance acceptance) {
        this.writes = writes;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = SubscriptionCreateBody.class, example = """
            {"email": "ada@example.com", "subscriptionId": "sub-1001", "name": "Pro plan", "status": "ACTIVE", "startDate": "2026-01-01T00:00:00Z", "price": 19.99, "periodicity": "MONTHLY"}""")
    @Operation(summary = "Record a subscription (asynchronous).")
    @RequiresRole(Roles.CREATE_SUBSCRIPTIONS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> writes.create(caller, JsonBody.parse(body, SubscriptionCreateBody.class)));
    }

    @Put(consumes = MediaType.ALL)
    @RequestBodyType(value = SubscriptionUpdateBody.class, example = """
            {"ids": ["sub-1001"], "price": 24.99}""")
    @Operation(operationId = "updateSubscriptions", summary = "Update subscriptions selected by ids (asynchronous).")
    @RequiresRole(Roles.UPDATE_SUBSCRIPTIONS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> writes.update(caller, JsonBody.parse(body, SubscriptionUpdateBody.class)));
    }
}
