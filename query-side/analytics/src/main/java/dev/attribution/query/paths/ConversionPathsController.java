package dev.attribution.query.paths;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.Envelopes;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;


/** {@code GET /api/v1.0/conversion-paths} (spec 4.4): conversions of one type with their source touches, from ClickHouse. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/conversion-paths")
@Requires(beans = ConversionPaths.class)
class ConversionPathsController {

    private final ConversionPaths paths;
    private final PageTokens tokens;

    ConversionPathsController(ConversionPaths paths, PageTokens tokens) {
        this.paths = paths;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "Conversion paths of leads that converted.")
    @RequiresRole(Roles.GET_CONVERSION_PATHS)
    @QueryParameters(value = ConversionPathsQuery.Parameters.class, enforcing = true)
    Envelopes.Page<ConversionPath> list(QueryParams q, Caller caller) {
        ConversionPathsQuery query = ConversionPathsQuery.read(q, caller.accountId(), caller.account().timeZone(), tokens);
        ConversionPaths.Page page = paths.page(caller.accountId(), caller.account().timeZone(), query);
        String next = page.next() == null ? null : query.nextPageId(page.next(), caller.accountId(), tokens);
        return new Envelopes.Page<>(page.rows(), next, RequestIds.current());
    }
}
