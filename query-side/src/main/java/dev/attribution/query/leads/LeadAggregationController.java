package dev.attribution.query.leads;

import dev.attribution.api.ApiException;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.util.Arrays;
import java.util.Set;

/** {@code GET /api/v1.0/leads/aggregation} (spec 4.1): lead counts by attribute, from ClickHouse. */
@Controller("/api/v1.0/leads/aggregation")
@Requires(beans = LeadAggregation.class)
class LeadAggregationController {

    private static final Set<String> PARAMETERS = Set.of("attribute", "groupsLimit", "ids", "emails", "phones", "tags",
            "tagFromDate", "tagToDate", "stage", "fromDate", "toDate", "updatedFromDate", "updatedToDate");

    private final LeadAggregation aggregation;

    LeadAggregationController(LeadAggregation aggregation) {
        this.aggregation = aggregation;
    }

    @Get
    @RequiresRole(Roles.GET_LEAD_AGGREGATION)
    Envelopes.Single<AggregationResult> aggregate(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.strict(request.getParameters(), PARAMETERS);
        String attribute = q.string("attribute").orElseThrow(() -> ApiException.badRequest("Missing required parameter: attribute"));
        LeadAggregation.Attribute a = LeadAggregation.Attribute.valueOf(FixedSet.require("attribute", attribute,
                Arrays.stream(LeadAggregation.Attribute.values()).map(Enum::name).toList()));
        int groupsLimit = q.intInRange("groupsLimit", 1, 1000, 250);
        LeadFilter filter = LeadFilter.read(q, caller.account().timeZone());
        return new Envelopes.Single<>(aggregation.aggregate(caller.accountId(), a, filter, groupsLimit), RequestIds.next());
    }
}
