package dev.attribution.query.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.time.Instant;

/** {@code GET /api/v1.0/leads} (spec 4.1): leads from PostgreSQL, current as of the request. */
@Controller("/api/v1.0/leads")
class LeadsController {

    private final LeadReader reader;
    private final PageTokens pageTokens;

    LeadsController(LeadReader reader, PageTokens pageTokens) {
        this.reader = reader;
        this.pageTokens = pageTokens;
    }

    @Get
    @RequiresRole(Roles.GET_LEADS)
    Envelopes.Page<LeadView> list(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.lenient(request.getParameters());
        LeadFilter filter = LeadFilter.read(q, caller.account().timeZone());
        int pageSize = q.intInRange("pageSize", 1, 250, 50);
        LeadReader.Cursor after = q.string("pageId").map(token -> {
            JsonNode c = pageTokens.open(token, caller.accountId(), filter.fingerprint(), PageTokens.INVALID);
            return new LeadReader.Cursor(Instant.parse(c.get("t").asText()), c.get("id").asText());
        }).orElse(null);
        LeadReader.Page page = reader.page(caller.accountId(), caller.account().timeZone(), filter, after, pageSize);
        String next = null;
        if (page.next() != null) {
            ObjectNode cursor = JsonBody.mapper().createObjectNode()
                    .put("t", page.next().createdAt().toString())
                    .put("id", page.next().id());
            next = pageTokens.issue(caller.accountId(), filter.fingerprint(), cursor);
        }
        return new Envelopes.Page<>(page.leads(), next, RequestIds.next());
    }
}
