package dev.attribution.query.urlrules;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
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
import io.micronaut.http.annotation.PathVariable;
import io.swagger.v3.oas.annotations.Operation;

import java.util.List;

/** {@code GET /url-rules} and {@code GET /url-rules/{id}} (spec 4.9), strict parameters (4.0). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/url-rules")
class UrlRulesController {

    static final String INVALID_PAGE = "The provided pageId is invalid or has expired";

    private final UrlRuleReader reader;
    private final PageTokens pageTokens;

    UrlRulesController(UrlRuleReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "List URL rules.")
    @RequiresRole(Roles.GET_URL_RULES)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Page<UrlRuleView> list(QueryParams q, Caller caller) {
        UrlRuleFilter filter = UrlRuleFilter.read(q, caller.account().timeZone());
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint(), INVALID_PAGE);
        if ("CALL_QUALIFICATION".equals(filter.actionType().orElse(""))) {
            return new Envelopes.Page<>(List.of(), null, RequestIds.current());
        }
        UrlRuleReader.Page page = reader.page(caller.accountId(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.rules(), next, RequestIds.current());
    }

    @Get("/{id}")
    @Operation(operationId = "getUrlRule", summary = "One URL rule.")
    @RequiresRole(Roles.GET_URL_RULES)
    @QueryParameters(enforcing = true)
    Envelopes.Page<UrlRuleView> one(@PathVariable String id, QueryParams q, Caller caller) {
        List<UrlRuleView> found = reader.one(caller.accountId(), id).map(List::of).orElse(List.of());
        return new Envelopes.Page<>(found, null, RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "rule ids (ur-…)");
        Spec tag = Spec.string("source tag");
        Spec urlRuleActionType = Spec.string("the rule's action").oneOf(UrlRuleFilter.ACTION_TYPES);
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
    }
}
