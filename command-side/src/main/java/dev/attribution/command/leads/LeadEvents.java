package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Account;
import dev.attribution.command.events.DomainEvents;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The lead's domain events (spec 6): an outbox row carrying the lead as {@code GET /leads} shows it, in this transaction. */
@Singleton
class LeadEvents {

    private final RecordViews views;

    LeadEvents(RecordViews views) {
        this.views = views;
    }

    /** The lead as {@code GET /leads} shows it, read on this connection (null when erased or missing). */
    public JsonNode render(Connection c, Account account, String leadId) {
        return views.leads(c, account.id(), account.timeZone(), List.of(leadId)).stream().findFirst()
                .map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    /** {@link #render} of many leads of one account in one read, by id (erased or missing ones left out). */
    Map<String, JsonNode> renderAll(Connection c, Account account, List<String> leadIds) {
        Map<String, JsonNode> out = new HashMap<>();
        views.leads(c, account.id(), account.timeZone(), leadIds).forEach(v -> out.put(v.id(), JsonBody.mapper().valueToTree(v)));
        return out;
    }

    /** {@link #recordDetail} with an optional {@code tag}; returns the lead as rendered for the event. */
    JsonNode record(Connection c, Account account, String leadId, String type, String tag, Instant at) throws SQLException {
        ObjectNode detail = JsonBody.mapper().createObjectNode();
        if (tag != null) {
            detail.put("tag", tag);
        }
        return recordDetail(c, account, leadId, type, detail, at);
    }

    /**
     * One outbox row: {@code {lead: <GET /leads item>, ...detail}}, in this transaction. Returns the lead as rendered
     * for it (not to be changed: it is the event's).
     */
    JsonNode recordDetail(Connection c, Account account, String leadId, String type, ObjectNode detail, Instant at)
            throws SQLException {
        ObjectNode payload = JsonBody.mapper().createObjectNode();
        JsonNode lead = render(c, account, leadId);
        payload.set("lead", lead);
        payload.setAll(detail);
        DomainEvents.record(c, account.id(), type, leadId, payload, at);
        return lead;
    }
}
