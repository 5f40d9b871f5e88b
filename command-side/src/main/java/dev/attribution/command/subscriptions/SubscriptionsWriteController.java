package dev.attribution.command.subscriptions;

import dev.attribution.api.CommandJson;
import dev.attribution.api.Envelopes;
import dev.attribution.api.NodeSide;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.ServedBy;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.requests.WriteAcceptance;
import dev.attribution.command.subscriptions.SubscriptionCommands.CreateSubscription;
import dev.attribution.command.subscriptions.SubscriptionCommands.UpdateSubscriptions;
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
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/subscriptions")
class SubscriptionsWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final WriteAcceptance acceptance;

    SubscriptionsWriteController(Commands commands, Blacklist blacklist, WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
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
        return acceptance.accept(() -> {
            CreateSubscription s = SubscriptionRules.create(CommandJson.bind(body, SubscriptionCreateBody.class));
            SubscriptionRules.checkBlacklist(blacklist, caller.accountId(), s);
            return commands.submit(caller.accountId(), SubscriptionRules.lane(s), s);
        });
    }

    @Put(consumes = MediaType.ALL)
    @RequestBodyType(value = SubscriptionUpdateBody.class, example = """
            {"ids": ["sub-1001"], "price": 24.99}""")
    @Operation(operationId = "updateSubscriptions", summary = "Update subscriptions selected by ids (asynchronous).")
    @RequiresRole(Roles.UPDATE_SUBSCRIPTIONS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            UpdateSubscriptions u = SubscriptionRules.update(CommandJson.bind(body, SubscriptionUpdateBody.class));
            return commands.submit(caller.accountId(), SubscriptionRules.lane(u), u);
        });
    }
}
