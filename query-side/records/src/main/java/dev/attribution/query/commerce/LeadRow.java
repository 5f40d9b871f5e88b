package dev.attribution.query.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.query.support.Keyset;

import java.sql.Connection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * A sale, call or subscription read without its lead: its id and date (the keyset position of its list), the lead
 * to embed once the page is known, and the view to embed it in.
 */
public record LeadRow<V>(String id, String leadId, Instant date, V view) {

    /** Where the list resumes after this row. */
    public Keyset position() {
        return new Keyset(date, id);
    }

    /** The views of {@code rows}, in order, each with its lead embedded by {@code embed} (legacy creation dates). */
    public static <V> List<V> withLeads(LeadReader leads, Connection c, String accountId, ZoneId zone,
                                        List<LeadRow<V>> rows, BiFunction<V, JsonNode, V> embed) {
        Map<String, JsonNode> byId = LeadEmbeds.load(leads, c, accountId, zone, rows.stream().map(LeadRow::leadId).toList(), true);
        return rows.stream().map(r -> embed.apply(r.view(), byId.get(r.leadId()))).toList();
    }
}
