package dev.attribution.query.subscriptions;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.SubscriptionView;

import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
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

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /api/v1.0/subscriptions}: {@code status} (or the client's {@code subscriptionStates}) takes the read set
 * of 2.4, UNKNOWN included; dates bound the start date; {@code updatedFromDate}/{@code updatedToDate} the last update.
 */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/subscriptions")
class SubscriptionsController {

    /** SubscriptionStatus (read and filter) of spec 2.4. */
    public static final List<String> STATUS_READ = List.of("ACTIVE", "TRIALING", "CANCELED", "PAST_DUE", "INCOMPLETE",
            "INCOMPLETE_EXPIRED", "UNPAID", "COMPLETED", "PAUSED", "UNKNOWN");

    private final SubscriptionReader reader;
    private final PageTokens tokens;

    SubscriptionsController(SubscriptionReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "List subscriptions.")
    @RequiresRole(Roles.GET_SUBSCRIPTIONS)
    @QueryParameters(Query.class)
    Envelopes.Page<SubscriptionView> list(QueryParams q, Caller caller) {
        ZoneId zone = caller.account().timeZone();
        List<String> statuses = new ArrayList<>();
        for (String name : List.of("status", "subscriptionStates")) {
            q.list(name).forEach(s -> statuses.add(FixedSet.require(name, s, STATUS_READ)));
        }
        SubscriptionReader.Filter filter = new SubscriptionReader.Filter(q.list("ids"), q.list("emails"),
                q.list("leadIds"), q.list("productTags"), statuses,
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<SubscriptionView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "subscription ids");
        Spec emails = Spec.contacts(50, "subscribers' emails");
        Spec leadIds = Spec.list(50, "subscribers' lead ids");
        Spec productTags = Spec.list(20, "product tags");
        Spec status = Spec.list(50, "statuses, of " + STATUS_READ);
        Spec subscriptionStates = Spec.list(50, "statuses (same as status)");
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
        Spec updatedFromDate = Spec.date("updated at or after");
        Spec updatedToDate = Spec.date("updated at or before");
    }
}
