package dev.attribution.query.aggregation;

import dev.attribution.api.LeadFilter;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.ApiException;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParameter;
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

import java.util.Arrays;

/** {@code GET /api/v1.0/leads/aggregation} (spec 4.1): lead counts by attribute, from ClickHouse. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/leads/aggregation")
@Requires(beans = LeadAggregation.class)
class LeadAggregationController {

    private final LeadAggregation aggregation;

    LeadAggregationController(LeadAggregation aggregation) {
        this.aggregation = aggregation;
    }

    @Get
    @Operation(summary = "Count leads grouped by an attribute.")
    @RequiresRole(Roles.GET_LEAD_AGGREGATION)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Single<AggregationResult> aggregate(QueryParams q, Caller caller) {
        String attribute = q.string("attribute").orElseThrow(() -> ApiException.badRequest("Missing required parameter: attribute"));
        LeadAggregation.Attribute a = LeadAggregation.Attribute.valueOf(FixedSet.require("attribute", attribute,
                Arrays.stream(LeadAggregation.Attribute.values()).map(Enum::name).toList()));
        int groupsLimit = q.intInRange("groupsLimit", 250);
        LeadFilter filter = LeadFilter.read(q, caller.account().timeZone());
        return new Envelopes.Single<>(aggregation.aggregate(caller.accountId(), a, filter, groupsLimit), RequestIds.current());
    }

    interface Query extends LeadFilter.Parameters {
        Spec attribute = Spec.string("the attribute to group by").required()
                .oneOf((Object[]) LeadAggregation.Attribute.values());
        Spec groupsLimit = Spec.integer(1, 1000, "most groups returned (default 250)");
    }
}
