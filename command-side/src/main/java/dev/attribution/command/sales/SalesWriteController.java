package dev.attribution.command.sales;

import dev.attribution.api.Envelopes;
import dev.attribution.api.QueryParams;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Put;

/** Sale writes of spec 4.2. */
@Controller("/api/v1.0/sales")
class SalesWriteController {

    private final SaleWrites writes;

    SalesWriteController(SaleWrites writes) {
        this.writes = writes;
    }

    @Put(consumes = MediaType.ALL)
    @RequiresRole(Roles.UPDATE_SALES)
    Envelopes.WriteAccepted update(HttpRequest<?> request, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, QueryParams.lenient(request.getParameters())));
    }

    @Delete("/{id}")
    @RequiresRole(Roles.DELETE_SALES)
    Envelopes.WriteAccepted delete(@PathVariable String id, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.delete(caller, id));
    }
}
