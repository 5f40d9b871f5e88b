package dev.attribution.query.urlrules;

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
import io.micronaut.http.annotation.PathVariable;

import java.util.List;
import java.util.Set;

/** {@code GET /url-rules} and {@code GET /url-rules/{id}} (spec 4.9), strict parameters (4.0). */
@Controller("/api/v1.0/url-rules")
class UrlRulesController {

    static final String INVALID_PAGE = "The provided pageId is invalid or has expired";
    private static final Set<String> LIST_PARAMS = Set.of("ids", "tag", "urlRuleActionType", "fromDate", "toDate", "pageSize", "pageId");

    private final UrlRuleReader reader;
    private final PageTokens pageTokens;

    UrlRulesController(UrlRuleReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @RequiresRole(Roles.GET_URL_RULES)
    Envelopes.Page<UrlRuleView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.strict(request.getParameters(), LIST_PARAMS);
        UrlRuleFilter filter = UrlRuleFilter.read(q, caller.account().timeZone());
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), filter.fingerprint(), INVALID_PAGE);
        if ("CALL_QUALIFICATION".equals(filter.actionType().orElse(""))) {
            return new Envelopes.Page<>(List.of(), null, RequestIds.next());
        }
        UrlRuleReader.Page page = reader.page(caller.accountId(), filter, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), filter.fingerprint());
        return new Envelopes.Page<>(page.rules(), next, RequestIds.next());
    }

    @Get("/{id}")
    @RequiresRole(Roles.GET_URL_RULES)
    Envelopes.Page<UrlRuleView> one(@PathVariable String id, HttpRequest<?> request, Caller caller) {
        QueryParams.strict(request.getParameters(), Set.of());
        List<UrlRuleView> found = reader.one(caller.accountId(), id).map(List::of).orElse(List.of());
        return new Envelopes.Page<>(found, null, RequestIds.next());
    }
}
