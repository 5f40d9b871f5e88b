package dev.attribution.command.orders;

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

/** Order writes of spec 4.2. */
@Controller("/api/v1.0/orders")
class OrdersWriteController {

    private final OrderWrites writes;

    OrdersWriteController(OrderWrites writes) {
        this.writes = writes;
    }

    @Post(consumes = MediaType.ALL)
    @RequiresRole(Roles.CREATE_ORDERS)
    Envelopes.WriteAccepted create(@Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.create(caller, JsonBody.parse(body)));
    }

    @Put(value = "/{id}", consumes = MediaType.ALL)
    @RequiresRole(Roles.UPDATE_ORDERS)
    Envelopes.WriteAccepted update(@PathVariable String id, @Nullable @Body String body, Caller caller) {
        return Envelopes.WriteAccepted.of(writes.update(caller, id, JsonBody.parse(body)));
    }

    @Delete("/{id}")
    @RequiresRole(Roles.DELETE_ORDERS)
    Envelopes.WriteAccepted refund(@PathVariable String id, HttpRequest<?> request, Caller caller) {
        String amount = QueryParams.lenient(request.getParameters()).string("refundedAmount").orElse(null);
        return Envelopes.WriteAccepted.of(writes.refund(caller, id, amount));
    }
}
