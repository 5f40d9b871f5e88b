package dev.attribution.query.leads;

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

/** {@code GET /api/v1.0/leads} (spec 4.1): leads from PostgreSQL, current as of the request. */
@Controller("/api/v1.0/leads")
class LeadsController {

    private final LeadReader reader;
    private final PageTokens pageTokens;

    LeadsController(LeadReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @RequiresRole(Roles.GET_LEADS)
    Envelopes.Page<LeadView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.lenient(request.getParameters());
        LeadFilter filter = LeadFilter.read(q, caller.account().timeZone());
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint());
        LeadReader.Page page = reader.page(caller.accountId(), caller.account().timeZone(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.leads(), next, RequestIds.next());
    }
}
