package dev.attribution.query.carts;

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

import java.time.ZoneId;
import java.util.Set;

/** {@code GET /api/v1.0/carts} (spec 4.12): strict parameters; {@code purchased} splits bought from abandoned carts. */
@Controller("/api/v1.0/carts")
class CartsController {

    static final Set<String> PARAMETERS = Set.of("emails", "leadIds", "purchased", "fromDate", "toDate", "pageSize", "pageId");

    private final CartReader reader;
    private final PageTokens tokens;

    CartsController(CartReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @RequiresRole(Roles.GET_CARTS)
    Envelopes.Page<CartView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.strict(request.getParameters(), PARAMETERS);
        ZoneId zone = caller.account().timeZone();
        CartReader.Filter filter = new CartReader.Filter(q.list("emails", 50), q.list("leadIds", 50),
                q.bool("purchased").orElse(null), DateRange.read(q, "fromDate", "toDate", zone, true));
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<CartView> page = reader.page(caller.accountId(), zone, filter, after, pageSize, tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.next());
    }
}
