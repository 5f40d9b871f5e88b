package dev.attribution.command.leads;

import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Post;
import io.micronaut.core.annotation.Nullable;

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
}
