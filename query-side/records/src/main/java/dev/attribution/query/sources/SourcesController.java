package dev.attribution.query.sources;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.SourceView;

import dev.attribution.api.DateRange;
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

/** {@code GET /sources} (spec 4.8): live sources from PostgreSQL. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/sources")
class SourcesController {

    private final SourceReader reader;
    private final PageTokens pageTokens;

    SourcesController(SourceReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "List traffic sources.")
    @RequiresRole(Roles.GET_SOURCES)
    @QueryParameters(Query.class)
    Envelopes.Page<SourceView> list(QueryParams q, Caller caller) {
        SourceFilter filter = SourceFilter.read(q);
        DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint());
        SourceReader.Page page = reader.page(caller.accountId(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.sources(), next, RequestIds.current());
    }

    interface Query extends SourceFilter.Parameters, QueryParameter.Paged {
        Spec fromDate = Spec.date("checked only (spec 7.2)");
        Spec toDate = Spec.date("checked only (spec 7.2)");
    }
}
