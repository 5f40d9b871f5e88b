package dev.attribution.command.customcosts;

import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
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
@Controller("/api/v1.0/custom-costs")
class CustomCostsWriteController {

    private final CustomCostWrites writes;

    CustomCostsWriteController(CustomCostWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CustomCostBody.class, example = """
            {"name": "Newsletter design", "startDate": "2026-01-01", "frequency": "DAILY", "cost": 12.5, "tags": ["@newsletter"]}""")
    @Operation(summary = "Create a custom cost (asynchronous).")
    @RequiresRole(Roles.CREATE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body, CustomCostBody.class)));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequestBodyType(value = CustomCostBody.class, enforcing = true, example = """
            {"name": "Newsletter design", "startDate": "2026-01-01", "frequency": "DAILY", "cost": 15, "tags": ["@newsletter"]}""")
    @Operation(summary = "Update a custom cost (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String id, QueryParams q, @Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, id, JsonBody.parse(body, CustomCostBody.class)));
    }

    @Delete("/{id}")
    @Operation(summary = "Delete a custom cost (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_CUSTOM_COSTS)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String id, QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, id));
    }
}
