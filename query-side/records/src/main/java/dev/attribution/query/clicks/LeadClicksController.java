package dev.attribution.query.clicks;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.ClickView;

import dev.attribution.api.ApiException;
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

import java.util.List;
import java.util.stream.Stream;

/** {@code GET /api/v1.0/leads/clicks} (spec 4.1): the clicks of one or more leads, oldest first. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/leads/clicks")
class LeadClicksController {

    static final String ONE_SELECTOR = "Exactly one of 'leadId', 'leadIds' or 'emails' must be provided.";

    private final ClickReader reader;
    private final PageTokens pageTokens;

    LeadClicksController(ClickReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "The clicks of leads.")
    @RequiresRole(Roles.GET_LEAD_CLICKS)
    @QueryParameters(Query.class)
    Envelopes.Page<ClickView> list(QueryParams q, Caller caller) {
        String leadId = q.string("leadId").orElse(null);
        List<String> leadIds = q.list("leadIds");
        List<String> emails = q.list("emails");
        String email = q.string("email").orElse(null); // deprecated single-email form
        long sent = Stream.of(leadId != null, !leadIds.isEmpty(), !emails.isEmpty(), email != null).filter(b -> b).count();
        if (sent != 1) {
            throw ApiException.badRequest(ONE_SELECTOR);
        }
        ClickReader.Selection selection = new ClickReader.Selection(leadId, leadIds, email != null ? List.of(email) : emails);
        DateRange range = DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = Integer.toHexString((selection + "|" + range).hashCode());
        Keyset after = Keyset.read(q, pageTokens, caller.accountId(), fingerprint);
        ClickReader.Page page = reader.page(caller.accountId(), caller.account().timeZone(), selection, range, after, pageSize);
        String next = Keyset.issue(page.next(), pageTokens, caller.accountId(), fingerprint);
        return new Envelopes.Page<>(page.clicks(), next, RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec leadId = Spec.string("one lead id (exactly one of leadId, leadIds, emails)");
        Spec leadIds = Spec.list(50, "lead ids");
        Spec emails = Spec.contacts(50, "lead emails");
        Spec email = Spec.contact("one lead email (deprecated: use emails)");
        Spec fromDate = Spec.date("clicked at or after");
        Spec toDate = Spec.date("clicked at or before");
    }
}
