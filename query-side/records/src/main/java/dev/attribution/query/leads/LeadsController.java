package dev.attribution.query.leads;

import dev.attribution.api.LeadFilter;
import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.LeadView;

import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.support.Keyset;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

/** {@code GET /api/v1.0/leads} (spec 4.1): leads from PostgreSQL, current as of the request. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/leads")
class LeadsController {

    private final LeadReader reader;
    private final PageTokens pageTokens;

    LeadsController(LeadReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "List leads with their current stage; all filters optional.")
    @RequiresRole(Roles.GET_LEADS)
    @QueryParameters(Query.class)
    Envelopes.Page<LeadView> list(QueryParams q, Caller caller) {
        LeadFilter filter = LeadFilter.read(q, caller.account().timeZone());
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint());
        LeadReader.Page page = reader.page(caller.accountId(), caller.account().timeZone(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.leads(), next, RequestIds.current());
    }

    interface Query extends LeadFilter.Parameters, QueryParameter.Paged {
    }
}
