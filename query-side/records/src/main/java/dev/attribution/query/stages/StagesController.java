package dev.attribution.query.stages;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
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

import java.util.List;

/**
 * {@code GET /api/v1.0/stages}: list envelope of {@code {id, name, leadCount}} (the shape real clients read as
 * {@code result} and page with {@code nextPageId}). Filters {@code name} (case-insensitive exact),
 * {@code stageFromDate}/{@code stageToDate}; {@code fromDate}/{@code toDate} are checked (7.2.3, 7.2.5) but do not filter.
 * The role is Get Leads: the spec names none for stages.
 */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/stages")
class StagesController {

    private final StageReader reader;
    private final PageTokens pageTokens;

    StagesController(StageReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(summary = "Lead stages with the number of leads in each.")
    @RequiresRole(Roles.GET_LEADS)
    @QueryParameters(Query.class)
    Envelopes.Page<StageReader.StageCount> list(QueryParams q, Caller caller) {
        DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        DateRange entered = DateRange.read(q, "stageFromDate", "stageToDate", caller.account().timeZone(), false);
        String name = q.string("name").orElse(null);
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = Integer.toHexString(("stages|" + name + "|" + entered).hashCode());
        String after = q.string("pageId")
                .map(t -> pageTokens.open(t, caller.accountId(), fingerprint, PageTokens.INVALID).get("after").asText())
                .orElse(null);
        List<StageReader.StageCount> rows = reader.page(caller.accountId(), name, entered, after, pageSize + 1);
        String next = null;
        if (rows.size() > pageSize) {
            rows = rows.subList(0, pageSize);
            next = pageTokens.issue(caller.accountId(), fingerprint,
                    JsonBody.mapper().createObjectNode().put("after", rows.get(pageSize - 1).id()));
        }
        return new Envelopes.Page<>(rows, next, RequestIds.current());
    }

    interface Query extends QueryParameter.Paged {
        Spec fromDate = Spec.date("checked only (spec 7.2)");
        Spec toDate = Spec.date("checked only (spec 7.2)");
        Spec stageFromDate = Spec.date("entered the stage at or after");
        Spec stageToDate = Spec.date("entered the stage at or before");
        Spec name = Spec.string("stage name");
    }
}
