package dev.attribution.command.calls;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;

/** Call writes of spec 4.3. */
@Controller("/api/v1.0/calls")
class CallsWriteController {

    private final CallWrites writes;

    CallsWriteController(CallWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequiresRole(Roles.CREATE_CALLS)
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body)));
    }

    @Put(consumes = MediaType.ALL)
    @RequiresRole(Roles.UPDATE_CALLS)
    Envelopes.WriteAccepted update(HttpRequest<?> request, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, QueryParams.lenient(request.getParameters())));
    }

    @Delete("/{id}")
    @RequiresRole(Roles.DELETE_CALLS)
    Envelopes.WriteAccepted delete(@PathVariable String id, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, id));
    }
}
