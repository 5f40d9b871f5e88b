package dev.attribution.query.requests;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.ApiException;
import dev.attribution.api.Envelopes;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.swagger.v3.oas.annotations.Operation;


/** {@code GET /api/v1.0/requests/{request_id}} (spec 4.13, 2.20): the outcome of an asynchronous write. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/requests")
class RequestStatusController {

    private final RequestStatusReader reader;

    RequestStatusController(RequestStatusReader reader) {
        this.reader = reader;
    }

    @Get("/{requestId}")
    @Operation(summary = "Status of an asynchronous write: PENDING, PROCESSED or FAILED, with its result.")
    @QueryParameters(enforcing = true)
    Envelopes.Single<RequestStatus> get(@PathVariable String requestId, QueryParams q, Caller caller) {
        RequestStatus status = reader.find(caller.accountId(), caller.owner().id(), requestId)
                .orElseThrow(() -> ApiException.notFound("Request not found: " + requestId));
        return new Envelopes.Single<>(status, RequestIds.current());
    }
}
