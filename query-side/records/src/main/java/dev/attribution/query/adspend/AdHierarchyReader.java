package dev.attribution.query.adspend;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.attribution.api.ApiDates;
import dev.attribution.query.sources.SourceReader;
import dev.attribution.views.SourceView;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Reads ad accounts, ads and keywords (tables of V52) for {@code GET /ad-accounts}, {@code /ads}, {@code /keywords}. */
@Singleton
public class AdHierarchyReader {

    /** Item of {@code GET /ad-accounts}: {@code name} and {@code type} may be left out by {@code fields}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AdAccount(String id, String name, String type) {
    }

    /** Item of {@code GET /ads} (2.13): creationDate in epoch ms; {@code source} omitted when no source tracks the ad. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Ad(String name, SourceView.AdSource adSource, SourceView source, @ApiDate(ApiDate.Encoding.EPOCH_MILLIS) long creationDate) {
    }

    /** Item of {@code GET /keywords} (shape not shown in the spec). */
    public record Keyword(String id, String keyword, String matchType, String adgroupId, String platform, @ApiDate(ApiDate.Encoding.OFFSET) String creationDate) {
    }

    /** Keyset position shared by the three lists: creation instant, then a unique key. */
    public record Cursor(Instant createdAt, String key) {
    }

    public record Page<T>(List<T> items, Cursor next) {
    }

    private final JdbcOperations jdbc;

    public AdHierarchyReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Page<AdAccount> adAccounts(String accountId, List<String> ids, boolean withName, boolean withType, Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder("SELECT *, platform || ':' || ad_account_id AS k FROM ad_accounts WHERE account_id = ?");
        List<Object> args = new ArrayList<>(List.of(accountId));
        if (!ids.isEmpty()) {
            sql.append(" AND ad_account_id = ANY(?)");
            args.add(ids);
        }
        return page(sql, args, after, pageSize, "created_at", "platform || ':' || ad_account_id", rs -> new AdAccount(
                rs.getString("ad_account_id"), withName ? rs.getString("name") : null, withType ? rs.getString("platform") : null));
    }

    @Transactional(readOnly = true)
    public Page<Ad> ads(String accountId, Optional<String> platform, List<String> adIds, Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder("""
                SELECT a.platform AS ad_platform, a.ad_id, a.ad_account_id AS ad_ad_account_id, a.name AS ad_name,
                       a.created_at AS ad_created_at, a.platform || ':' || a.ad_id AS k, src.*
                FROM ads a
                LEFT JOIN LATERAL (
                    SELECT s.*, ts.name AS ts_name, g.name AS goal_name, c.name AS category_name
                    FROM source_links s
                    LEFT JOIN traffic_sources ts ON ts.account_id = s.account_id AND ts.id = s.traffic_source_id
                    LEFT JOIN source_goals g ON g.account_id = s.account_id AND g.id = s.goal_id
                    LEFT JOIN source_categories c ON c.account_id = s.account_id AND c.id = s.category_id
                    WHERE s.account_id = a.account_id AND s.deleted_at IS NULL AND s.platform = a.platform
                      AND s.ad_source_id IN (a.ad_set_id, a.campaign_id) AND s.ad_source_id <> ''
                    ORDER BY (s.ad_source_id = a.ad_set_id) DESC, s.created_at LIMIT 1) src ON true
                WHERE a.account_id = ? AND NOT a.source_level""");
        List<Object> args = new ArrayList<>(List.of(accountId));
        platform.ifPresent(p -> {
            sql.append(" AND a.platform = ?");
            args.add(p);
        });
        if (!adIds.isEmpty()) {
            sql.append(" AND a.ad_id = ANY(?)");
            args.add(adIds);
        }
        return page(sql, args, after, pageSize, "a.created_at", "a.platform || ':' || a.ad_id", rs -> {
            SourceView source = rs.getString("id") == null ? null
                    : SourceReader.map(rs, rs.getTimestamp("created_at").toInstant());
            return new Ad(rs.getString("ad_name"),
                    new SourceView.AdSource(rs.getString("ad_id"), rs.getString("ad_ad_account_id"), rs.getString("ad_platform")),
                    source, rs.getTimestamp("ad_created_at").toInstant().toEpochMilli());
        }, "ad_created_at");
    }

    @Transactional(readOnly = true)
    public Page<Keyword> keywords(String accountId, ZoneId zone, Optional<String> adGroupId, Optional<Instant> from,
                                  Optional<Instant> to, Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder("SELECT *, platform || ':' || keyword_id AS k FROM ad_keywords WHERE account_id = ?");
        List<Object> args = new ArrayList<>(List.of(accountId));
        adGroupId.ifPresent(g -> {
            sql.append(" AND ad_set_id = ?");
            args.add(g);
        });
        from.ifPresent(f -> {
            sql.append(" AND created_at >= ?");
            args.add(Timestamp.from(f));
        });
        to.ifPresent(t -> {
            sql.append(" AND created_at <= ?");
            args.add(Timestamp.from(t.truncatedTo(java.time.temporal.ChronoUnit.MICROS)));
        });
        return page(sql, args, after, pageSize, "created_at", "platform || ':' || keyword_id", rs -> new Keyword(
                rs.getString("keyword_id"), rs.getString("keyword"), rs.getString("match_type"), rs.getString("ad_set_id"),
                rs.getString("platform"), ApiDates.format(rs.getTimestamp("created_at").toInstant(), zone)));
    }

    private interface Mapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private <T> Page<T> page(StringBuilder sql, List<Object> args, Cursor after, int pageSize, String createdColumn,
                             String keyExpr, Mapper<T> mapper) {
        return page(sql, args, after, pageSize, createdColumn, keyExpr, mapper, "created_at");
    }

    private <T> Page<T> page(StringBuilder sql, List<Object> args, Cursor after, int pageSize, String createdColumn,
                             String keyExpr, Mapper<T> mapper, String createdLabel) {
        if (after != null) {
            sql.append(" AND (").append(createdColumn).append(", ").append(keyExpr).append(") > (?, ?)");
            args.add(Timestamp.from(after.createdAt()));
            args.add(after.key());
        }
        sql.append(" ORDER BY ").append(createdColumn).append(", ").append(keyExpr).append(" LIMIT ?");
        args.add(pageSize + 1);
        Connection c = jdbc.getConnection();
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof List<?> list) {
                    ps.setArray(i + 1, c.createArrayOf("text", list.toArray()));
                } else {
                    ps.setObject(i + 1, a);
                }
            }
            List<T> items = new ArrayList<>();
            Cursor next = null;
            try (ResultSet rs = ps.executeQuery()) {
                int n = 0;
                while (rs.next()) {
                    n++;
                    if (n > pageSize) {
                        break;
                    }
                    items.add(mapper.map(rs));
                    if (n == pageSize) {
                        next = new Cursor(rs.getTimestamp(createdLabel).toInstant(), rs.getString("k"));
                    }
                }
                if (n <= pageSize) {
                    next = null;
                }
            }
            return new Page<>(items, next);
        } catch (SQLException e) {
            throw new IllegalStateException("ad hierarchy query failed: " + e.getMessage(), e);
        }
    }
}
