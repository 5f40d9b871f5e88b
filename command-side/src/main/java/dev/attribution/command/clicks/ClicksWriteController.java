package dev.attribution.command.clicks;

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
import io.micronaut.core.annotation.NonBlocking;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.swagger.v3.oas.annotations.Operation;

import java.util.concurrent.CompletableFuture;

/** {@code POST /api/v1.0/clicks} (spec 4.11). */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/clicks")
class ClicksWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final WriteAcceptance acceptance;

    ClicksWriteController(Commands commands, Blacklist blacklist, WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateClick.class, example = """
            {"referrerUrl": "https://shop.example.com/pricing?utm_source=newsletter", "email": "ada@example.com", "ip": "203.0.113.7"}""")
    @Operation(summary = "Record a click (asynchronous).")
    @RequiresRole(Roles.CREATE_CLICKS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            CreateClick click = ClickRules.create(CommandJson.bind(body, CreateClick.class));
            blacklist.check(caller.accountId(), click.email(), click.phoneList());
            return commands.submit(caller.accountId(), ClickRules.lane(click), click);
        });
    }
}
