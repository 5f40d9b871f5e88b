package dev.attribution.command.sources;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.command.adspend.AdHierarchy;
import dev.attribution.command.customcosts.CustomCostsTable;
import dev.attribution.command.leads.LeadTags;
import dev.attribution.command.requests.WriteHandler;
import dev.attribution.views.RecordViews;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/** The three source write handlers (CREATE/UPDATE/DELETE_SOURCE_LINK), applied in the worker's transaction. */
@Singleton
class SourceStore {

    private final RecordViews views;
    private final AdHierarchy hierarchy;
    private final CustomCostsTable costs;

    SourceStore(RecordViews views, AdHierarchy hierarchy, CustomCostsTable costs) {
        this.views = views;
        this.hierarchy = hierarchy;
        this.costs = costs;
    }

    JsonNode create(Connection c, WriteHandler.Write w) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        String id = RequestIds.next("src_");
        String tag = freeTag(c, accountId, tagFor(p.get("name").asText()));
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO source_links (account_id, id, tag, name, category_id, goal_id, traffic_source_id, disregarded,
                    organic, platform, ad_source_id, ad_account_id, adspend_sub_type, campaign_id, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, tag);
            ps.setString(4, p.get("name").asText());
            ps.setObject(5, named(c, "source_categories", accountId, text(p, "category")));
            ps.setObject(6, named(c, "source_goals", accountId, text(p, "goal")));
            ps.setObject(7, named(c, "traffic_sources", accountId, text(p, "trafficSource")));
            ps.setBoolean(8, p.path("isDisregard").asBoolean(false));
            ps.setBoolean(9, p.path("isOrganic").asBoolean(false));
            ps.setString(10, text(p, "integrationType"));
            ps.setString(11, text(p, "adSourceId"));
            ps.setString(12, text(p, "accountId"));
            ps.setString(13, text(p, "adspendSubType"));
            ps.setString(14, text(p, "campaignId"));
            ps.setTimestamp(15, java.sql.Timestamp.from(w.acceptedAt()));
            ps.setTimestamp(16, java.sql.Timestamp.from(w.acceptedAt()));
            ps.executeUpdate();
        }
        hierarchy.registerSource(c, accountId, text(p, "integrationType"), text(p, "adSourceId"), text(p, "accountId"),
                text(p, "campaignId"), p.get("name").asText());
        return view(c, accountId, id);
    }

    JsonNode update(Connection c, WriteHandler.Write w) throws SQLException {
        JsonNode p = w.payload();
        String accountId = w.account().id();
        String id = p.get("id").asText();
        if (p.has("tag")) {
            try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM source_links WHERE account_id = ? AND lower(tag) = lower(?) "
                    + "AND id <> ? AND deleted_at IS NULL")) {
                ps.setString(1, accountId);
                ps.setString(2, p.get("tag").asText());
                ps.setString(3, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        throw new WriteHandler.WriteFailure("The tag " + p.get("tag").asText() + " is already used by another source");
                    }
                }
            }
        }
        String oldTag = null;
        boolean oldOrganic = false;
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT tag, organic FROM source_links WHERE account_id = ? AND id = ? AND deleted_at IS NULL FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    oldTag = rs.getString(1);
                    oldOrganic = rs.getBoolean(2);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE source_links SET name = COALESCE(?, name), tag = COALESCE(?, tag),
                  category_id = CASE WHEN ? THEN ? ELSE category_id END,
                  goal_id = CASE WHEN ? THEN ? ELSE goal_id END,
                  traffic_source_id = CASE WHEN ? THEN ? ELSE traffic_source_id END,
                  disregarded = COALESCE(?, disregarded), organic = COALESCE(?, organic), updated_at = ?
                WHERE account_id = ? AND id = ? AND deleted_at IS NULL""")) {
            ps.setString(1, p.has("name") ? p.get("name").asText() : null);
            ps.setString(2, p.has("tag") ? p.get("tag").asText() : null);
            int i = 3;
            for (String[] f : new String[][]{{"category", "source_categories"}, {"goal", "source_goals"}, {"trafficSource", "traffic_sources"}}) {
                ps.setBoolean(i++, p.has(f[0]));
                ps.setObject(i++, p.has(f[0]) ? named(c, f[1], accountId, p.get(f[0]).asText()) : null);
            }
            ps.setObject(i++, p.has("isDisregard") ? p.get("isDisregard").asBoolean() : null);
            ps.setObject(i++, p.has("isOrganic") ? p.get("isOrganic").asBoolean() : null);
            ps.setTimestamp(i++, java.sql.Timestamp.from(w.acceptedAt()));
            ps.setString(i++, accountId);
            ps.setString(i, id);
            if (ps.executeUpdate() == 0) {
                throw new WriteHandler.WriteFailure("Source not found");
            }
        }
        reattribute(c, accountId, oldTag, p.has("tag") ? p.get("tag").asText() : oldTag,
                p.has("isOrganic") && p.get("isOrganic").asBoolean() != oldOrganic ? p.get("isOrganic").asBoolean() : null);
        return view(c, accountId, id);
    }

    /**
     * Re-attribution after {@code PUT /sources/{tag}} (spec 4.8): the source's past clicks carry its new tag and organic
     * flag, and its leads' {@code @} tags and the custom costs naming it follow a tag change, in this write's transaction; the CDC bridge then carries the
     * changed clicks to ClickHouse, where every report and aggregation picks them up. Nothing happens when neither the tag
     * nor the organic flag changed.
     */
    private void reattribute(Connection c, String accountId, String oldTag, String newTag, Boolean organic)
            throws SQLException {
        boolean renamed = oldTag != null && !oldTag.equals(newTag);
        if (oldTag == null || !renamed && organic == null) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE clicks SET source_link_tag = ?, is_organic = COALESCE(?, is_organic)
                WHERE account_id = ? AND lower(source_link_tag) = lower(?)""")) {
            ps.setString(1, newTag);
            ps.setObject(2, organic);
            ps.setString(3, accountId);
            ps.setString(4, oldTag);
            ps.executeUpdate();
        }
        if (renamed) {
            LeadTags.renameTag(c, accountId, oldTag, newTag); // a lead holding both tags keeps the one it has
            costs.renameSourceTag(c, accountId, oldTag, newTag);
        }
    }

    void delete(Connection c, WriteHandler.Write w) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE source_links SET deleted_at = ?, updated_at = ? WHERE account_id = ? AND id = ? AND deleted_at IS NULL")) {
            ps.setTimestamp(1, java.sql.Timestamp.from(w.acceptedAt()));
            ps.setTimestamp(2, java.sql.Timestamp.from(w.acceptedAt()));
            ps.setString(3, w.account().id());
            ps.setString(4, w.payload().get("id").asText());
            ps.executeUpdate();
        }
    }

    private JsonNode view(Connection c, String accountId, String id) {
        return views.source(c, accountId, id).map(v -> (JsonNode) JsonBody.mapper().valueToTree(v)).orElse(null);
    }

    /** {@code @} and the name in lower case, runs of other characters as one dash. */
    static String tagFor(String name) {
        String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_.]+", "-").replaceAll("^-+|-+$", "");
        return "@" + (slug.isEmpty() ? "source" : slug);
    }

    /** {@code tag}, or {@code tag-2}, {@code tag-3} … the first no live source carries. */
    private static String freeTag(Connection c, String accountId, String tag) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT lower(tag) FROM source_links WHERE account_id = ? "
                + "AND deleted_at IS NULL AND (lower(tag) = lower(?) OR lower(tag) LIKE lower(?))")) {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            ps.setString(3, tag.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "-%");
            java.util.Set<String> taken = new java.util.HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    taken.add(rs.getString(1));
                }
            }
            String candidate = tag;
            for (int n = 2; taken.contains(candidate.toLowerCase(Locale.ROOT)); n++) {
                candidate = tag + "-" + n;
            }
            return candidate;
        }
    }

    /** Id of the named row (created when absent); null for a blank name. */
    static Long named(Connection c, String table, String accountId, String name) throws SQLException {
        if (name == null || name.isBlank()) {
            return null;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM " + table + " WHERE account_id = ? AND lower(name) = lower(?)")) {
            ps.setString(1, accountId);
            ps.setString(2, name.trim());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (account_id, name) VALUES (?, ?) "
                + "ON CONFLICT DO NOTHING RETURNING id")) {
            ps.setString(1, accountId);
            ps.setString(2, name.trim());
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return rs.getLong(1);
                }
            }
        }
        return named(c, table, accountId, name);
    }

    private static String text(JsonNode p, String field) {
        return p.hasNonNull(field) ? p.get(field).asText() : "";
    }

    static List<String> none() {
        return List.of();
    }
}
