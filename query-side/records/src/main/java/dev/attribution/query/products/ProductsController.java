package dev.attribution.query.products;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.ProductView;

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

import java.util.List;

/** {@code GET /api/v1.0/products} (spec 4.6): strict parameters, exact name and tag, recurring filter. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/products")
class ProductsController {

    static final List<String> RECURRING = List.of("RECURRING", "NON_RECURRING", "ALL");

    private final ProductReader reader;
    private final PageTokens tokens;

    ProductsController(ProductReader reader, PageTokens tokens) {
        this.reader = reader;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "List products.")
    @RequiresRole(Roles.GET_PRODUCTS)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Page<ProductView> list(QueryParams q, Caller caller) {
        String tag = q.string("tag").map(SaleTags::of).orElse(null);
        String recurring = q.string("isRecurringSale").map(v -> FixedSet.require("isRecurringSale", v, RECURRING)).orElse("ALL");
        ProductReader.Filter filter = new ProductReader.Filter(q.string("name").orElse(null), tag,
                q.string("category").orElse(null), recurring.equals("ALL") ? null : recurring.equals("RECURRING"),
                DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true));
        int pageSize = q.intInRange("pageSize", 50);
        Keyset after = Keyset.read(q, tokens, caller.accountId(), filter.fingerprint());
        Keyset.Page<ProductView> page = reader.page(caller.accountId(), filter, after, pageSize, filter.fingerprint(), tokens);
        return new Envelopes.Page<>(page.items(), page.nextPageId(), RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec name = Spec.string("product name");
        Spec tag = Spec.string("product tag");
        Spec category = Spec.string("category name");
        Spec isRecurringSale = Spec.string("recurring products, others, or all (default ALL)").oneOf(RECURRING);
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
    }
}
