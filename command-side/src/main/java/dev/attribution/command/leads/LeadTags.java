package dev.attribution.command.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Account;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The only writer of {@code lead_tags}: tags added (with their events and {@link LeadTagListener}s, or quietly for a
 * URL rule), re-dated, removed, renamed with a source, erased with the lead.
 */
@Singleton
public class LeadTags {

    /**
     * The tags a write added, and the lead as it stands after them when the last tag event's render is still
     * current (empty when no tag was new or something was written after that render).
     */
    record TagsAdded(List<String> tags, Optional<JsonNode> lead) {
    }

    private final LeadEvents events;
    private final List<LeadTagListener> tagListeners;

    LeadTags(LeadEvents events, List<LeadTagListener> tagListeners) {
        this.events = events;
        this.tagListeners = tagListeners;
    }

    /**
     * Adds tags not yet held, dated {@code assignedAt}; tags already held keep their date (spec 3.2). Records
     * {@code lead.tag.added} for each new tag and tells the {@link LeadTagListener}s (a {@code $} tag matching a
     * product makes a sale). Returns the tags that were new.
     */
    List<String> addTagsReturningNew(Connection c, Account account, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        return addTags(c, account, leadId, tags, assignedAt).tags();
    }

    /**
     * {@link #addTagsReturningNew}, also returning the lead as rendered for the last {@code lead.tag.added} event when
     * nothing was written after that render (no listener acted): then it is the lead as it now stands.
     */
    TagsAdded addTags(Connection c, Account account, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        List<String> added = insertTags(c, account.id(), leadId, tags, assignedAt);
        JsonNode current = null;
        for (String tag : added) {
            current = events.record(c, account, leadId, "lead.tag.added", tag, assignedAt);
            for (LeadTagListener listener : tagListeners) {
                if (listener.tagAdded(c, account, leadId, tag, assignedAt)) {
                    current = null;
                }
            }
        }
        return new TagsAdded(added, Optional.ofNullable(current));
    }

    /** Adds tags not yet held, without events or listeners (a URL rule's tag of a click); returns the tags that were new. */
    public static List<String> insertTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt)
            throws SQLException {
        List<String> added = new ArrayList<>();
        if (tags.isEmpty()) {
            return added;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at)
                SELECT ?, ?, t, ? FROM unnest(?::text[]) AS t ON CONFLICT DO NOTHING RETURNING tag""")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.setTimestamp(3, Timestamp.from(assignedAt));
            ps.setArray(4, c.createArrayOf("text", tags.stream().distinct().toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    added.add(rs.getString(1));
                }
            }
        }
        return added;
    }

    /** Re-dates tags the lead already holds (action tags of {@code POST /leads/tags}). */
    void redateTags(Connection c, String accountId, String leadId, List<String> tags, Instant assignedAt) throws SQLException {
        if (tags.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE lead_tags SET assigned_at = ? WHERE account_id = ? AND lead_id = ? AND tag = ANY(?) AND assigned_at <> ?")) {
            ps.setTimestamp(1, Timestamp.from(assignedAt));
            ps.setString(2, accountId);
            ps.setString(3, leadId);
            ps.setArray(4, c.createArrayOf("text", tags.toArray()));
            ps.setTimestamp(5, Timestamp.from(assignedAt));
            ps.executeUpdate();
        }
    }

    /** Removes tags; records {@code lead.tag.removed} for each one the lead held. */
    List<String> removeTags(Connection c, Account account, String leadId, List<String> tags, Instant now) throws SQLException {
        List<String> removed = new ArrayList<>();
        if (tags.isEmpty()) {
            return removed;
        }
        try (PreparedStatement ps = c.prepareStatement(
                "DELETE FROM lead_tags WHERE account_id = ? AND lead_id = ? AND tag = ANY(?) RETURNING tag")) {
            ps.setString(1, account.id());
            ps.setString(2, leadId);
            ps.setArray(3, c.createArrayOf("text", tags.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    removed.add(rs.getString(1));
                }
            }
        }
        for (String tag : removed) {
            events.record(c, account, leadId, "lead.tag.removed", tag, now);
        }
        return removed;
    }

    /** The lead's tags, gone with it ({@code DELETE /leads}, spec 3.2). */
    void eraseLead(Connection c, String accountId, String leadId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_tags WHERE account_id = ? AND lead_id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, leadId);
            ps.executeUpdate();
        }
    }

    /**
     * A source's tag renamed (case-insensitive match of {@code oldTag}): leads holding it hold {@code newTag} instead;
     * a lead holding both keeps the one it has and the old one goes.
     */
    public static void renameTag(Connection c, String accountId, String oldTag, String newTag) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE lead_tags t SET tag = ? WHERE t.account_id = ? AND lower(t.tag) = lower(?)
                  AND NOT EXISTS (SELECT 1 FROM lead_tags n WHERE n.account_id = t.account_id AND n.lead_id = t.lead_id
                                  AND lower(n.tag) = lower(?))""")) {
            ps.setString(1, newTag);
            ps.setString(2, accountId);
            ps.setString(3, oldTag);
            ps.setString(4, newTag);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM lead_tags WHERE account_id = ? AND lower(tag) = lower(?)")) {
            ps.setString(1, accountId);
            ps.setString(2, oldTag);
            ps.executeUpdate();
        }
    }

    /** A tag on a lead since {@code assignedAt}. */
    public record Bulk(String accountId, String leadId, String tag, Instant assignedAt) {
    }

    /** Inserts tags in one batch, quietly (the demo seed: no events, no listeners). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO lead_tags (account_id, lead_id, tag, assigned_at) VALUES (?, ?, ?, ?)", rows,
                r -> new Object[]{r.accountId(), r.leadId(), r.tag(), r.assignedAt()});
    }
}
