package dev.attribution.query.journey;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
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

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** {@code GET /api/v1.0/leads/journey} (spec 4.1, 2.17). */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/leads/journey")
class LeadJourneyController {

    static final String SELECTOR_REQUIRED = "Either 'ids' or 'emails' must be provided.";

    private final JourneyReader reader;

    /** {@code {result: LeadJourney[], request_id}}; {@code result} present even when empty. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record ListResult(List<ObjectNode> result, @JsonProperty("request_id") String requestId) {
    }

    LeadJourneyController(JourneyReader reader) {
        this.reader = reader;
    }

    @Get
    @Operation(summary = "Leads' journeys: clicks, sales and calls in order.")
    @RequiresRole(Roles.GET_LEAD_JOURNEY)
    @QueryParameters(Query.class)
    ListResult journeys(QueryParams q, Caller caller) {
        List<String> ids = q.list("ids");
        List<String> emails = q.list("emails");
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
                RequestIds.current());
    }

    interface Query extends QueryParameter {
        Spec ids = Spec.list(50, "lead ids (ids or emails required)");
        Spec emails = Spec.contacts(50, "lead emails");
        Spec fields = Spec.string("comma-separated parts of the journey, of " + JourneyReader.FIELDS);
        Spec includeEvents = Spec.bool("include the journey's events");
    }
}
