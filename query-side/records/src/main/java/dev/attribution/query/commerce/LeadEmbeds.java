package dev.attribution.query.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.views.LeadView;

import java.sql.Connection;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Leads embedded in sales, calls and subscriptions (spec 2.3): the lead's GET shape with {@code creationDate} in
 * the legacy encoding; carts embed the lead unchanged (LeadWithConsent).
 */
public final class LeadEmbeds {

    private LeadEmbeds() {
    }

    /** The leads of {@code ids} by id, with legacy creation dates when {@code legacy}. */
    public static Map<String, JsonNode> load(LeadReader reader, Connection connection, String accountId, ZoneId zone,
                                             Collection<String> ids, boolean legacy) {
        Map<String, JsonNode> out = new HashMap<>();
        if (ids.isEmpty()) {
            return out;
        }
        List<LeadView> leads = reader.byIds(connection, accountId, zone, ids.stream().distinct().toList());
        for (LeadView lead : leads) {
            ObjectNode node = JsonBody.mapper().valueToTree(lead);
            if (legacy && lead.creationDate() != null) {
                node.put("creationDate", ApiDates.formatLegacy(OffsetDateTime.parse(lead.creationDate()).toInstant(), zone));
            }
            out.put(lead.id(), node);
        }
        return out;
    }
}
