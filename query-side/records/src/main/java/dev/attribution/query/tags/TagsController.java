package dev.attribution.query.tags;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
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

/** {@code GET /tags} (deprecated) and {@code GET /tags/count} (spec 4.7). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/tags")
class TagsController {

    private final TagReader reader;

    /** {@code {request_id, result: string[]}}; {@code result} present even when empty. */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.ALWAYS)
    record Names(List<String> result, @com.fasterxml.jackson.annotation.JsonProperty("request_id") String requestId) {
    }
    private final PageTokens pageTokens;

    TagsController(TagReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @Operation(operationId = "listTags", summary = "The account's tag names.")
    @RequiresRole(Roles.GET_TAGS)
    Names names(Caller caller) {
        return new Names(reader.names(caller.accountId()), RequestIds.current());
    }

    @Get("/count")
    @Operation(operationId = "listTagCounts", summary = "Tags with the number of leads carrying each.")
    @RequiresRole(Roles.GET_TAGS)
    @QueryParameters(value = CountQuery.class, enforcing = true)
    Envelopes.Page<TagReader.TagCount> counts(QueryParams q, Caller caller) {
        String name = q.string("name").orElse(null);
        int pageSize = q.intInRange("pageSize", 50);
        // issue 22 item 22 (docs/clients.md "Where the spec is silent"): 002 §7.2 rules 3 and 5 name tags/count among
        // the endpoints taking fromDate/toDate; the pair bounds when the leads received the tag
        dev.attribution.api.DateRange applied = dev.attribution.api.DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        String fingerprint = "tags|" + name + "|" + applied.from().orElse(null) + "|" + applied.to().orElse(null);
        String after = q.string("pageId")
                .map(t -> pageTokens.open(t, caller.accountId(), fingerprint, PageTokens.INVALID).get("after").asText())
                .orElse(null);
        List<TagReader.TagCount> rows = reader.counts(caller.accountId(), name, applied, after, pageSize + 1);
        String next = null;
        if (rows.size() > pageSize) {
            rows = rows.subList(0, pageSize);
            next = pageTokens.issue(caller.accountId(), fingerprint,
                    JsonBody.mapper().createObjectNode().put("after", rows.get(pageSize - 1).name()));
        }
        return new Envelopes.Page<>(rows, next, RequestIds.current());
    }

    interface CountQuery extends QueryParameter.Paged {
        Spec name = Spec.string("exact tag name");
        Spec fromDate = Spec.date("leads that received the tag at or after (spec 7.2 rules 3 and 5)");
        Spec toDate = Spec.date("leads that received the tag at or before");
    }
}
