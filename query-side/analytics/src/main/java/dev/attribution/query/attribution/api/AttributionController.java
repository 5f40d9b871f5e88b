package dev.attribution.query.attribution.api;

import dev.attribution.query.attribution.models.AttributionReport;
import dev.attribution.query.attribution.request.AttributionParameter;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.util.List;
import java.util.Map;

/** {@code GET /api/v1.0/attribution} (spec 4.5). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/attribution")
@Requires(beans = AttributionReport.class)
public class AttributionController {

    /** The response: rows, and a message naming the ids that do not exist at the level. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Response(@JsonProperty("request_id") String requestId, List<Map<String, Object>> result, List<String> message,
                    String nextPageId) {
    }

    private final AttributionRunner runner;

    AttributionController(AttributionRunner runner) {
        this.runner = runner;
    }

    @Get
    @Operation(operationId = "getAttributionReport",
            summary = "Attribution report (last_click, first_click or scientific) by ad level.")
    @RequiresRole(Roles.GET_ATTRIBUTION)
    @QueryParameters(AttributionParameter.class)
    Response attribution(QueryParams q, Caller caller) {
        AttributionRunner.Answer a = runner.run(caller.accountId(), caller.account().timeZone(), q);
        return new Response(RequestIds.current(), a.rows(), a.message().isEmpty() ? null : a.message(), a.nextPageId());
    }
}
