package dev.attribution.command.customcosts;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.api.Envelopes;
import dev.attribution.api.CommandJson;
import dev.attribution.api.RequestIds;
import dev.attribution.command.customcosts.CustomCostCommands.CreateCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.DeleteCustomCost;
import dev.attribution.command.customcosts.CustomCostCommands.UpdateCustomCost;
import dev.attribution.command.requests.Commands;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;
import io.swagger.v3.oas.annotations.Operation;

/** Custom cost writes of spec 4.10, each answered with a {@code request_id}. */
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/custom-costs")
class CustomCostsWriteController {

    private final Commands commands;

    CustomCostsWriteController(Commands commands) {
        this.commands = commands;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CustomCostFields.class, example = """
            {"name": "Newsletter design", "startDate": "2026-01-01", "frequency": "DAILY", "cost": 12.5, "tags": ["@newsletter"]}""")
    @Operation(summary = "Create a custom cost (asynchronous).")
    @RequiresRole(Roles.CREATE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        CustomCostFields cost = CustomCostRules.check(CommandJson.bind(body, CustomCostFields.class));
        String id = RequestIds.next("cc_");
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "cost:" + id, CreateCustomCost.of(id, cost)));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = CustomCostFields.class, enforcing = true, example = """
            {"name": "Newsletter design", "startDate": "2026-01-01", "frequency": "DAILY", "cost": 15, "tags": ["@newsletter"]}""")
    @Operation(summary = "Update a custom cost (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String id, QueryParams q, @Nullable @Body String body, Caller caller) {
        CustomCostFields cost = CustomCostRules.check(CommandJson.bind(body, CustomCostFields.class, true));
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "cost:" + id, UpdateCustomCost.of(id, cost)));
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a custom cost (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String id, QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), "cost:" + id, new DeleteCustomCost(id)));
    }
}
