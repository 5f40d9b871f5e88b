package dev.attribution.command.leads;

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
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Put;

/** Lead writes of spec 4.1; each is validated, logged durably and answered with a {@code request_id}. */
@Controller("/api/v1.0/leads")
class LeadsWriteController {

    private final LeadWrites writes;

    LeadsWriteController(LeadWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequiresRole(Roles.CREATE_LEADS)
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body)));
    }

    @Put(consumes = MediaType.ALL)
    @RequiresRole(Roles.UPDATE_LEADS)
    Envelopes.WriteAccepted update(HttpRequest<?> request, @Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, QueryParams.lenient(request.getParameters()), JsonBody.parse(body)));
    }

    @Delete(consumes = MediaType.ALL)
    @RequiresRole(Roles.DELETE_LEADS)
    Envelopes.WriteAccepted delete(HttpRequest<?> request, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, QueryParams.lenient(request.getParameters())));
    }

    @Post(uri = "/tags", consumes = MediaType.ALL)
    @RequiresRole(Roles.ADD_TAGS_TO_LEADS)
    Envelopes.WriteAccepted addTags(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.addTags(caller, JsonBody.parse(body)));
    }
}
