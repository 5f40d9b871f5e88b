package dev.attribution.query.carts;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.CartView;

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

import java.time.ZoneId;

/** {@code GET /api/v1.0/carts} (spec 4.12): strict parameters; {@code purchased} splits bought from abandoned carts. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/carts")
class CartsController {

    private final CartReader reader;
    private final PageTokens tokens;

    CartsController(CartReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "List carts.")
    @RequiresRole(Roles.GET_CARTS)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Page<CartView> list(QueryParams q, Caller caller) {
        ZoneId zone = caller.account().timeZone();
        CartReader.Filter filter = new CartReader.Filter(q.list("emails"), q.list("leadIds"),
                q.bool("purchased").orElse(null), DateRange.read(q, "fromDate", "toDate", zone, true));
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<CartView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec emails = Spec.contacts(50, "buyers' emails");
        Spec leadIds = Spec.list(50, "buyers' lead ids");
        Spec purchased = Spec.bool("true: carts that became an order; false: abandoned carts");
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
    }
}
