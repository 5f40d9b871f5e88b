package dev.attribution.query.journey;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code GET /api/v1.0/leads/journey} (spec 4.1, 2.17). */
@Controller("/api/v1.0/leads/journey")
class LeadJourneyController {

    static final String SELECTOR_REQUIRED = "Either 'ids' or 'emails' must be provided.";
    private static final int MAX_LIST = 50;

    private final JourneyReader reader;

    /** {@code {result: LeadJourney[], request_id}}; {@code result} present even when empty. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ListResult(List<ObjectNode> result, @JsonProperty("request_id") String requestId) {
    }

    LeadJourneyController(JourneyReader reader) {
        this.reader = reader;
    }

    @Get
    @RequiresRole(Roles.GET_LEAD_JOURNEY)
    ListResult journeys(HttpRequest<?> request, Caller caller) {
        QueryParams q = QueryParams.lenient(request.getParameters());
        List<String> ids = q.list("ids", MAX_LIST);
        List<String> emails = q.list("emails", MAX_LIST);
        if (ids.isEmpty() && emails.isEmpty()) {
            throw ApiException.badRequest(SELECTOR_REQUIRED);
        }
        Set<String> fields = new LinkedHashSet<>();
        if (q.string("fields").isPresent()) {
            for (String f : q.string("fields").get().split(",")) {
                String field = f.trim();
                if (field.isEmpty()) {
                    continue;
                }
                if (!JourneyReader.FIELDS.contains(field)) {
                    throw ApiException.badRequest("Invalid field: " + field);
                }
                fields.add(field);
            }
        } else {
            fields.addAll(JourneyReader.FIELDS);
            fields.remove("journey");
        }
        fields.add("lead");
        if (q.bool("includeEvents").orElse(false)) {
            fields.add("journey");
        }
        return new ListResult(reader.journeys(caller.accountId(), caller.account().timeZone(), ids, emails, fields),
                RequestIds.next());
    }
}
