package dev.attribution.query.attribution;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.ApiException;
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

import java.time.Clock;
import java.util.List;
import java.util.Map;

/** {@code GET /api/v1.0/attribution} (spec 4.5). */
@Controller("/api/v1.0/attribution")
@Requires(beans = AttributionReport.class)
class AttributionController {

    /** The response: rows, and a message naming the ids that do not exist at the level. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Response(@JsonProperty("request_id") String requestId, List<Map<String, Object>> result, List<String> message,
                    String nextPageId) {
    }

    static final String SCIENTIFIC_OPTIONS = "timeGroupingOption, status, isAdAccountId, newCustomerConfiguration, "
            + "ignoreRecurringSales, excludeHardCosts and lead_stage are not supported yet with attributionModel scientific";

    private final AttributionReport report;
    private final LeadStageNames stages;
    private final ScientificAttribution scientific;

    AttributionController(AttributionReport report, LeadStageNames stages, ScientificAttribution scientific) {
        this.report = report;
        this.stages = stages;
        this.scientific = scientific;
    }

    @Get
    @Operation(summary = "Attribution report (last_click, first_click or scientific) by ad level.")
    @RequiresRole(Roles.GET_ATTRIBUTION)
    @QueryParameters(AttributionParameter.class)
    Response attribution(QueryParams q, Caller caller) {
        AttributionOptions.keywordRules(q);
        AttributionRequest r = AttributionRequest.read(q, caller.account().timeZone(), Clock.systemUTC());
        AttributionOptions options = AttributionOptions.read(q, r);
        String what = options.adAccountId().isPresent() ? "Ad account not found at level " : "Id not found at level ";
        AttributionRows.Page result;
        if (r.model() == AttributionRequest.Model.scientific) {
            if (!options.equals(AttributionOptions.DEFAULT)) {
                throw ApiException.badRequest(SCIENTIFIC_OPTIONS);
            }
            AttributionReport.Result s = scientific.report(caller.accountId(), caller.account().timeZone(), r,
                    ScientificAttribution.daysRange(q));
            result = new AttributionRows.Page(s.rows(), s.unknownIds(), null);
        } else {
            List<String> leadStages = stages.resolve(caller.accountId(), options.filters().leadStages());
            result = report.report(caller.accountId(), caller.account().timeZone(), r, options, leadStages);
        }
        List<String> message = result.unknownIds().isEmpty() ? null
                : result.unknownIds().stream().map(id -> what + r.level().name() + ": " + id).toList();
        return new Response(RequestIds.next(), result.rows(), message, result.nextPageId());
    }
}
