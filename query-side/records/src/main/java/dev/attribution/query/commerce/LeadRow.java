package dev.attribution.query.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.views.Attribution;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.query.leads.SourcesAsOf;
import dev.attribution.query.support.Keyset;

import java.sql.Connection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * A sale, call or subscription read without its lead and sources: its id and date (the keyset position of its list,
 * and the date its sources are read as of), the lead to embed once the page is known, and the view to embed them in.
 */
public record LeadRow<V>(String id, String leadId, Instant date, V view) {

    /** Where the list resumes after this row. */
    public Keyset position() {
        return new Keyset(date, id);
    }

    /** A view with its lead (legacy creation date) and its first and last sources as of its date. */
    @FunctionalInterface
    public interface Embed<V> {
        V apply(V view, JsonNode lead, Attribution firstSource, Attribution lastSource);
    }

    /**
     * The views of {@code rows}, in order, each with its lead and its sources as of its {@link #date} embedded by
     * {@code embed}.
     */
    public static <V> List<V> withLeads(LeadReader leads, Connection c, String accountId, ZoneId zone,
                                        List<LeadRow<V>> rows, Embed<V> embed) {
        Map<String, JsonNode> byId = LeadEmbeds.load(leads, c, accountId, zone, rows.stream().map(LeadRow::leadId).toList(), true);
        Map<SourcesAsOf.At, SourcesAsOf.Sources> sources = SourcesAsOf.read(c, accountId, zone,
                rows.stream().map(r -> new SourcesAsOf.At(r.leadId(), r.date())).toList());
        return rows.stream().map(r -> {
            SourcesAsOf.Sources s = SourcesAsOf.of(sources, r.leadId(), r.date());
            return embed.apply(r.view(), byId.get(r.leadId()), s.first(), s.last());
        }).toList();
    }
}
