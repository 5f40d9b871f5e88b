package dev.attribution.command.sources;

import dev.attribution.api.DatabaseReads;
import dev.attribution.api.RequestIds;
import dev.attribution.command.sources.SourceCommands.CreateSource;
import dev.attribution.command.sources.SourceCommands.UpdateSource;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The only writer of the {@code source_links} table and of the source name tables ({@code source_categories},
 * {@code source_goals}, {@code traffic_sources}, "created if absent"), and the lookups the source writes make.
 */
@Singleton
public class SourcesTable {

    private final JdbcOperations jdbc;

    SourcesTable(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The stored tag and organic flag of a live source, locked for this transaction. */
    record Current(String tag, boolean organic) {
    }

    /** Accept time: the id of the live source carrying {@code tag} (case-insensitive), if any. */
    @Transactional(readOnly = true)
    public Optional<String> idByTag(String accountId, String tag) {
        DatabaseReads.beforeRead();
        return jdbc.prepareStatement("""
                SELECT id FROM source_links WHERE account_id = ? AND deleted_at IS NULL AND lower(tag) = lower(?)
                LIMIT 1""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
        });
    }

    /** A new source under a free tag derived from its name; returns its id. */
    String insert(Connection c, String accountId, CreateSource s, Instant now) throws SQLException {
        String id = RequestIds.next("src_");
        try (PreparedStatement ps = c.prepareStatement("""
                INSERT INTO source_links (account_id, id, tag, name, category_id, goal_id, traffic_source_id, disregarded,
                    organic, platform, ad_source_id, ad_account_id, adspend_sub_type, campaign_id, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            ps.setString(3, freeTag(c, accountId, tagFor(s.name())));
            ps.setString(4, s.name());
            ps.setObject(5, named(c, "source_categories", accountId, s.category()));
            ps.setObject(6, named(c, "source_goals", accountId, s.goal()));
            ps.setObject(7, named(c, "traffic_sources", accountId, s.trafficSource()));
            ps.setBoolean(8, Boolean.TRUE.equals(s.isDisregard()));
            ps.setBoolean(9, Boolean.TRUE.equals(s.isOrganic()));
            ps.setString(10, s.integrationType() == null ? "" : s.integrationType().name());
            ps.setString(11, orEmpty(s.adSourceId()));
            ps.setString(12, orEmpty(s.accountId()));
            ps.setString(13, s.adspendSubType() == null ? "" : s.adspendSubType().name());
            ps.setString(14, orEmpty(s.campaignId()));
            ps.setTimestamp(15, Timestamp.from(now));
            ps.setTimestamp(16, Timestamp.from(now));
            ps.executeUpdate();
        }
        return id;
    }

    /** Apply time: whether another live source carries {@code tag}. */
    boolean tagTakenByOther(Connection c, String accountId, String tag, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM source_links WHERE account_id = ? AND lower(tag) = lower(?) "
                + "AND id <> ? AND deleted_at IS NULL")) {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            ps.setString(3, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    Optional<Current> lock(Connection c, String accountId, String id) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT tag, organic FROM source_links WHERE account_id = ? AND id = ? AND deleted_at IS NULL FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(new Current(rs.getString(1), rs.getBoolean(2))) : Optional.empty();
            }
        }
    }

    /** The changes of {@code u} (null: unchanged; an empty name field: cleared); false when there is no such live source. */
    boolean update(Connection c, String accountId, UpdateSource u, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("""
                UPDATE source_links SET name = COALESCE(?, name), tag = COALESCE(?, tag),
                  category_id = CASE WHEN ? THEN ? ELSE category_id END,
                  goal_id = CASE WHEN ? THEN ? ELSE goal_id END,
                  traffic_source_id = CASE WHEN ? THEN ? ELSE traffic_source_id END,
                  disregarded = COALESCE(?, disregarded), organic = COALESCE(?, organic), updated_at = ?
                WHERE account_id = ? AND id = ? AND deleted_at IS NULL""")) {
            ps.setString(1, u.name());
            ps.setString(2, u.tag());
            int i = 3;
            i = change(ps, i, c, "source_categories", accountId, u.category());
            i = change(ps, i, c, "source_goals", accountId, u.goal());
            i = change(ps, i, c, "traffic_sources", accountId, u.trafficSource());
            ps.setObject(i++, u.isDisregard());
            ps.setObject(i++, u.isOrganic());
            ps.setTimestamp(i++, Timestamp.from(now));
            ps.setString(i++, accountId);
            ps.setString(i, u.id());
            return ps.executeUpdate() > 0;
        }
    }

    private static int change(PreparedStatement ps, int i, Connection c, String table, String accountId, String name) throws SQLException {
        ps.setBoolean(i, name != null);
        ps.setObject(i + 1, name == null ? null : named(c, table, accountId, name));
        return i + 2;
    }

    /** Soft delete. */
    void delete(Connection c, String accountId, String id, Instant now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "UPDATE source_links SET deleted_at = ?, updated_at = ? WHERE account_id = ? AND id = ? AND deleted_at IS NULL")) {
            ps.setTimestamp(1, Timestamp.from(now));
            ps.setTimestamp(2, Timestamp.from(now));
            ps.setString(3, accountId);
            ps.setString(4, id);
            ps.executeUpdate();
        }
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
            Set<String> taken = new HashSet<>();
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

    /**
     * Id of the named row of {@code table} ({@code source_categories}, {@code source_goals}, {@code traffic_sources};
     * created when absent, for sources and URL rules alike); null for a blank name.
     */
    public static Long named(Connection c, String table, String accountId, String name) throws SQLException {
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

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** A source link written whole (the demo seed's); an organic one has blank platform and ad ids. */
    public record Bulk(String accountId, String id, String tag, String name, boolean organic, String platform,
                       String adSourceId, String adAccountId, String campaignId, Instant createdAt, Instant updatedAt) {
    }

    /** Inserts source links in one batch (the demo seed); their ad hierarchy rows go through {@code AdHierarchy}. */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, """
                INSERT INTO source_links (account_id, id, tag, name, organic, platform, ad_source_id, ad_account_id, campaign_id,
                    created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows,
                r -> new Object[]{r.accountId(), r.id(), r.tag(), r.name(), r.organic(), r.platform(), r.adSourceId(),
                        r.adAccountId(), r.campaignId(), r.createdAt(), r.updatedAt()});
    }
}
