package dev.attribution.query.calls;

import dev.attribution.api.DateRange;
import dev.attribution.api.SaleTags;
import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.commerce.Keyset;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.time.ZoneId;

/** {@code GET /api/v1.0/calls} (spec 4.3). */
@Controller("/api/v1.0/calls")
class CallsController {

    private final CallReader reader;
    private final PageTokens tokens;

    CallsController(CallReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @RequiresRole(Roles.GET_CALLS)
    Envelopes.Page<CallView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.lenient(request.getParameters());
        ZoneId zone = caller.account().timeZone();
        CallReader.Filter filter = new CallReader.Filter(q.list("ids", 50), q.list("emails", 50), q.list("leadIds", 50),
                SaleTags.of(q.list("productTags", 20)), q.bool("qualified").orElse(null), q.list("qualificationStages", 50),
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<CallView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.next());
    }
}
