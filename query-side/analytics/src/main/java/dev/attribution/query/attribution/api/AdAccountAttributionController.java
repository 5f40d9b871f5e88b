package dev.attribution.query.attribution.api;

import dev.attribution.query.attribution.models.AdAccountAttributionReport;
import dev.attribution.query.attribution.request.AdAccountAttributionRequest;
import dev.attribution.query.attribution.request.AttributionFilters;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1.0/attribution/ad-account} (spec 4.5). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/attribution/ad-account")
public class AdAccountAttributionController {

    /** The response: the rows. */
    record Response(List<Map<String, Object>> result, @JsonProperty("request_id") String requestId) {
    }

    private final AdAccountAttributionReport report;

    AdAccountAttributionController(AdAccountAttributionReport report) {
        this.report = report;
    }

    @Get
    @Operation(operationId = "getAdAccountAttributionReport", summary = "Attribution of one ad account over time.")
    @RequiresRole(Roles.GET_AD_ACCOUNT_ATTRIBUTION)
    @QueryParameters(Query.class)
    Response adAccount(QueryParams q, Caller caller) {
        AdAccountAttributionRequest r = AdAccountAttributionRequest.read(q, caller.account().timeZone(), Clock.systemUTC());
        return new Response(report.report(caller.accountId(), caller.account().timeZone(), r), RequestIds.current());
    }

    interface Query extends AttributionRequest.Parameters, AttributionFilters.Parameters {
        Spec ids = Spec.list(50, "one ad account id").required();
        Spec adLevelDateGroupingOption = Spec.string("rows per ad account (default) or per period").oneOf(AdAccountAttributionRequest.GROUPINGS);
        Spec reportSourceVisibility = Spec.bool("report the sources' visibility");
    }
}
