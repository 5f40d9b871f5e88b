package dev.attribution.query.calls;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.CallView;

import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.SaleTags;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.support.Keyset;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.time.ZoneId;

/** {@code GET /api/v1.0/calls} (spec 4.3). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/calls")
class CallsController {

    private final CallReader reader;
    private final PageTokens tokens;

    CallsController(CallReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "List calls.")
    @RequiresRole(Roles.GET_CALLS)
    @QueryParameters(Query.class)
    Envelopes.Page<CallView> list(QueryParams q, Caller caller) {
        ZoneId zone = caller.account().timeZone();
        CallReader.Filter filter = new CallReader.Filter(q.list("ids"), q.list("emails"), q.list("leadIds"),
                SaleTags.of(q.list("productTags")), q.bool("qualified").orElse(null), q.list("qualificationStages"),
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<CallView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "call ids");
        Spec emails = Spec.contacts(50, "callers' emails");
        Spec leadIds = Spec.list(50, "callers' lead ids");
        Spec productTags = Spec.list(20, "product tags");
        Spec qualified = Spec.bool("qualified (true) or unqualified (false) calls only");
        Spec qualificationStages = Spec.list(50, "qualification stage names");
        Spec fromDate = Spec.date("called at or after");
        Spec toDate = Spec.date("called at or before");
        Spec updatedFromDate = Spec.date("updated at or after");
        Spec updatedToDate = Spec.date("updated at or before");
    }
}
