package dev.attribution.query.sales;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.SaleView;

import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
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
import java.util.List;

/** {@code GET /api/v1.0/sales} (spec 4.2): dates bound the sale date, never the refund date. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/sales")
class SalesController {

    static final List<String> RECURRING = List.of("RECURRING", "NON_RECURRING", "ALL");
    static final List<String> REFUNDED = List.of("REFUNDED", "NON_REFUNDED", "ALL");

    private final SaleReader reader;
    private final PageTokens tokens;

    SalesController(SaleReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "List sales.")
    @RequiresRole(Roles.GET_SALES)
    @QueryParameters(Query.class)
    Envelopes.Page<SaleView> list(QueryParams q, Caller caller) {
        ZoneId zone = caller.account().timeZone();
        String recurring = q.string("isRecurringSale").map(v -> FixedSet.require("isRecurringSale", v, RECURRING)).orElse("ALL");
        String refunded = q.string("saleRefundedState").map(v -> FixedSet.require("saleRefundedState", v, REFUNDED)).orElse("ALL");
        SaleReader.Filter filter = new SaleReader.Filter(q.list("ids"), q.list("emails"), q.list("leadIds"),
                SaleTags.of(q.list("productTags")),
                recurring.equals("ALL") ? null : recurring.equals("RECURRING"),
                refunded.equals("ALL") ? null : refunded.equals("REFUNDED"),
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<SaleView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "sale ids");
        Spec emails = Spec.contacts(50, "buyers' emails");
        Spec leadIds = Spec.list(50, "buyers' lead ids");
        Spec productTags = Spec.list(20, "product tags");
        Spec isRecurringSale = Spec.string("recurring sales, others, or all (default ALL)").oneOf(RECURRING);
        Spec saleRefundedState = Spec.string("refunded sales, others, or all (default ALL)").oneOf(REFUNDED);
        Spec fromDate = Spec.date("sold at or after");
        Spec toDate = Spec.date("sold at or before");
        Spec updatedFromDate = Spec.date("updated at or after");
        Spec updatedToDate = Spec.date("updated at or before");
    }
}
