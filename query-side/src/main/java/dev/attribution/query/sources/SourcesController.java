package dev.attribution.query.sources;

import io.swagger.v3.oas.annotations.Operation;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.support.Keyset;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

/** {@code GET /sources} (spec 4.8): live sources from PostgreSQL. */
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
        return new Envelopes.Page<>(page.sources(), next, RequestIds.next());
    }

    enum Query implements QueryParameter {
        adSourceIds(SourceFilter.AD_SOURCE_IDS),
        includeOrganic(SourceFilter.INCLUDE_ORGANIC),
        includeDisregarded(SourceFilter.INCLUDE_DISREGARDED),
        integrationType(SourceFilter.INTEGRATION_TYPE),
        name(SourceFilter.NAME),
        tag(SourceFilter.TAG),
        fromDate(Spec.date("checked only (spec 7.2)")),
        toDate(Spec.date("checked only (spec 7.2)")),
        pageSize(PAGE_SIZE),
        pageId(PAGE_ID);

        private final Spec spec;

        Query(Spec spec) {
            this.spec = spec;
        }

        @Override
        public Spec spec() {
            return spec;
        }
    }
}
