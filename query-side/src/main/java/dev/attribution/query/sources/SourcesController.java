package dev.attribution.query.sources;

import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.support.Keyset;
import io.micronaut.http.HttpRequest;
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
    @RequiresRole(Roles.GET_SOURCES)
    Envelopes.Page<SourceView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.lenient(request.getParameters());
        SourceFilter filter = SourceFilter.read(q);
        DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint());
        SourceReader.Page page = reader.page(caller.accountId(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.sources(), next, RequestIds.next());
    }
}
