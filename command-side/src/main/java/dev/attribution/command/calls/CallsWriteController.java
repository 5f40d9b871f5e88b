package dev.attribution.command.calls;

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

/** Call writes of spec 4.3. */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/calls")
class CallsWriteController {

    private final Commands commands;
    private final Blacklist blacklist;
    private final WriteAcceptance acceptance;

    CallsWriteController(Commands commands, Blacklist blacklist, WriteAcceptance acceptance) {
        this.commands = commands;
        this.blacklist = blacklist;
        this.acceptance = acceptance;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateCall.class, example = """
            {"name": "Discovery call", "email": "ada@example.com", "externalId": "call-1001", "date": "2026-01-06T15:00:00Z", "qualified": true}""")
    @Operation(summary = "Record a call (asynchronous).")
    @RequiresRole(Roles.CREATE_CALLS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> create(@Nullable @Body String body, Caller caller) {
        return acceptance.accept(() -> {
            CreateCall call = CallRules.create(CommandJson.bind(body, CreateCall.class));
            blacklist.check(caller.accountId(), call.person().email(), call.person().phoneNumbers().values());
            return commands.submit(caller.accountId(), call.person().email(), call);
        });
    }

    @Put(consumes = MediaType.ALL)
    @Operation(operationId = "updateCalls", summary = "Update calls selected by ids or externalIds (asynchronous).")
    @RequiresRole(Roles.UPDATE_CALLS)
    @QueryParameters(Query.class)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> update(QueryParams q, Caller caller) {
        return acceptance.accept(() -> {
            UpdateCalls update = CallRules.update(q);
            return commands.submit(caller.accountId(), CallRules.lane(update), update);
        });
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a call (asynchronous).")
    @RequiresRole(Roles.DELETE_CALLS)
    @AcceptsIdempotencyKey
    @NonBlocking
    CompletableFuture<Envelopes.WriteAccepted> delete(@PathVariable String id, Caller caller) {
        return acceptance.accept(() -> commands.submit(caller.accountId(), "call:" + id, new DeleteCall(id)));
    }

    interface Query extends QueryParameter {
        Spec ids = Spec.list(50, "call ids (ids or externalIds)");
        Spec externalIds = Spec.list(50, "your call ids");
        Spec name = Spec.string("the call's name").required();
        Spec qualification = Spec.string("qualification stage name");
        Spec state = Spec.string("the call's state").oneOf(CallRules.STATES);
        Spec qualified = Spec.bool("qualified or not");
    }
}
