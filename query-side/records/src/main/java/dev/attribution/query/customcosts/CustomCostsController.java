package dev.attribution.query.customcosts;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.views.CustomCostView;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * {@code GET /custom-costs} (spec 4.10), strict parameters. As spec 2.2.8 describes, {@code fromDate}/{@code toDate}
 * are read in the account's zone (2.2.4) while the costs keep a wall clock stored as written (as if UTC), so in a zone
 * west of UTC a window reaches a few hours into the next day; callers widen their window by a day.
 */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/custom-costs")
class CustomCostsController {

    private final CustomCostReader reader;
    private final PageTokens pageTokens;

    CustomCostsController(CustomCostReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "List custom costs.")
    @RequiresRole(Roles.GET_CUSTOM_COSTS)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Page<CustomCostView> list(QueryParams q, Caller caller) {
        ZoneId zone = caller.account().timeZone();
        List<String> ids = q.list("ids");
        DateRange range = DateRange.read(q, "fromDate", "toDate", zone, true);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = String.join(",", ids) + "|" + range.from().map(Object::toString).orElse("") + "|"
                + range.to().map(Object::toString).orElse("");
        CustomCostReader.Cursor after = q.string("pageId").map(token -> {
            JsonNode c = pageTokens.open(token, caller.accountId(), fingerprint, PageTokens.INVALID);
            return new CustomCostReader.Cursor(Instant.parse(c.get("t").asText()), c.get("id").asText());
        }).orElse(null);
        CustomCostReader.Page page = reader.page(caller.accountId(), ids,
                range.from().map(i -> LocalDateTime.ofInstant(i, ZoneOffset.UTC)), range.to().map(i -> LocalDateTime.ofInstant(i, ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS)),
                after, pageSize);
        String next = null;
        if (page.next() != null) {
            ObjectNode cursor = JsonBody.mapper().createObjectNode()
                    .put("t", page.next().createdAt().toString()).put("id", page.next().id());
            next = pageTokens.issue(caller.accountId(), fingerprint, cursor);
        }
        return new Envelopes.Page<>(page.costs(), next, RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec ids = Spec.list(50, "custom cost ids");
        Spec fromDate = Spec.date("created at or after");
        Spec toDate = Spec.date("created at or before");
    }
}
