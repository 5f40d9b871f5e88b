package dev.attribution.command.sources;

import dev.attribution.api.CommandJson;
import dev.attribution.api.Envelopes;
import dev.attribution.api.NodeSide;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.ServedBy;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.AcceptsIdempotencyKey;
import dev.attribution.command.requests.Commands;
import dev.attribution.command.sources.SourceCommands.CreateSource;
import dev.attribution.command.sources.SourceCommands.DeleteSource;
import dev.attribution.command.sources.SourceCommands.SourceChanges;
import dev.attribution.command.sources.SourceCommands.UpdateSource;
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
@ServedBy(NodeSide.COMMAND)
@Controller("/api/v1.0/sources")
class SourcesWriteController {

    private final Commands commands;
    private final SourcesTable sources;

    SourcesWriteController(Commands commands, SourcesTable sources) {
        this.commands = commands;
        this.sources = sources;
    }

    @Post(consumes = MediaType.ALL)
    @RequestBodyType(value = CreateSource.class, example = """
            {"name": "Newsletter", "category": "Email", "isOrganic": true}""")
    @Operation(summary = "Create a traffic source (asynchronous).")
    @RequiresRole(Roles.CREATE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        CreateSource source = SourceRules.create(CommandJson.bind(body, CreateSource.class));
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), SourceRules.lane(source.name()), source));
    }

    @Put(value = "/{tag}", consumes = MediaType.ALL)
    @RequestBodyType(value = SourceChanges.class, enforcing = true, example = """
            {"goal": "Subscribers"}""")
    @Operation(summary = "Update a traffic source (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.UPDATE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted update(@PathVariable String tag, QueryParams q, @Nullable @Body String body, Caller caller) {
        SourceChanges changes = CommandJson.bind(body, SourceChanges.class, true);
        String id = SourceRules.existing(caller.accountId(), tag, sources);
        UpdateSource update = SourceRules.update(caller.accountId(), id, changes, sources);
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), SourceRules.lane(id), update));
    }

    @Delete("/{tag}")
    @Operation(summary = "Delete a traffic source (asynchronous).")
    @QueryParameters(enforcing = true)
    @RequiresRole(Roles.DELETE_SOURCES)
    @AcceptsIdempotencyKey
    Envelopes.WriteAccepted delete(@PathVariable String tag, QueryParams q, Caller caller) {
        String id = SourceRules.existing(caller.accountId(), tag, sources);
        return Envelopes.WriteAccepted.of(commands.accept(caller.accountId(), SourceRules.lane(id), new DeleteSource(id)));
    }
}
