package dev.attribution.command.sources;

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

/** Source writes of spec 4.8, each answered with a {@code request_id}. */
@Controller("/api/v1.0/sources")
class SourcesWriteController {

    private final SourceWrites writes;

    SourcesWriteController(SourceWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = SourceCreateBody.class, example = """
            {"name": "Newsletter", "category": "Email", "isOrganic": true}""")
    @Operation(summary = "Create a traffic source (asynchronous).")
    @RequiresRole(Roles.CREATE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body, SourceCreateBody.class)));
    }

    @Put(value = "/{tag}", consumes = MediaType.ALL)
    @RequestBodyType(value = SourceUpdateBody.class, enforcing = true, example = """
            {"goal": "Subscribers"}""")
    @Operation(summary = "Update a traffic source (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String tag, QueryParams q, @Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, tag, JsonBody.parse(body, SourceUpdateBody.class)));
    }

    @Delete("/{tag}")
    @Operation(summary = "Delete a traffic source (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String tag, QueryParams q, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, tag));
    }
}
