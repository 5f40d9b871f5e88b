package dev.attribution.query.sources;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads live (not soft-deleted) sources from PostgreSQL in the Source shape of spec 2.13. */
@Singleton
public class SourceReader {

    public record Cursor(Instant createdAt, String id) {
    }

    public record Page(List<SourceView> sources, Cursor next) {
    }

    public static final String SELECT = """
            SELECT s.*, ts.name AS ts_name, g.name AS goal_name, c.name AS category_name
            FROM source_links s
            LEFT JOIN traffic_sources ts ON ts.account_id = s.account_id AND ts.id = s.traffic_source_id
            LEFT JOIN source_goals g ON g.account_id = s.account_id AND g.id = s.goal_id
            LEFT JOIN source_categories c ON c.account_id = s.account_id AND c.id = s.category_id
            WHERE s.account_id = ? AND s.deleted_at IS NULL""";

    private final JdbcOperations jdbc;

    public SourceReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Page page(String accountId, SourceFilter f, Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder(SELECT);
        List<Object> args = new ArrayList<>();
        args.add(accountId);
        if (!f.adSourceIds().isEmpty()) {
            sql.append(" AND s.ad_source_id = ANY(?)");
            args.add(f.adSourceIds());
        }
        if (!f.includeOrganic()) {
            sql.append(" AND NOT s.organic");
        }
        if (!f.includeDisregarded()) {
            sql.append(" AND NOT s.disregarded");
        }
        f.platform().ifPresent(p -> {
            sql.append(" AND s.platform = ?");
            args.add(p);
        });
        f.name().ifPresent(n -> {
            sql.append(" AND lower(s.name) = ?");
            args.add(n.toLowerCase(Locale.ROOT));
        });
        f.tag().ifPresent(t -> {
            sql.append(" AND lower(s.tag) = ?");
            args.add(t.toLowerCase(Locale.ROOT));
        });
        if (after != null) {
            sql.append(" AND (s.created_at, s.id) > (?, ?)");
            args.add(Timestamp.from(after.createdAt()));
            args.add(after.id());
        }
        sql.append(" ORDER BY s.created_at, s.id LIMIT ?");
        args.add(pageSize + 1);
        List<Row> rows = query(jdbc.getConnection(), sql.toString(), args);
        List<SourceView> page = rows.stream().limit(pageSize).map(Row::view).toList();
        if (rows.size() <= pageSize) {
            return new Page(page, null);
        }
        Row last = rows.get(pageSize - 1);
        return new Page(page, new Cursor(last.createdAt(), last.id()));
    }

    /** One live source by id, on the caller's connection (write handlers render their result with it). */
    public Optional<SourceView> byId(Connection c, String accountId, String id) {
        return query(c, SELECT + " AND s.id = ?", List.of(accountId, id)).stream().findFirst().map(Row::view);
    }

    /** The live source carrying {@code tag} (case-insensitive), if any: its id. */
    @Transactional(readOnly = true)
    public Optional<String> idByTag(String accountId, String tag) {
        return query(jdbc.getConnection(), SELECT + " AND lower(s.tag) = lower(?)", List.of(accountId, tag))
                .stream().findFirst().map(Row::id);
    }

    private record Row(SourceView view, Instant createdAt, String id) {
    }

    private static List<Row> query(Connection c, String sql, List<Object> args) {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof List<?> list) {
                    ps.setArray(i + 1, c.createArrayOf("text", list.toArray()));
                } else {
                    ps.setObject(i + 1, a);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<Row> out = new ArrayList<>();
                while (rs.next()) {
                    Instant created = rs.getTimestamp("created_at").toInstant();
                    out.add(new Row(map(rs, created), created, rs.getString("id")));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("source query failed: " + e.getMessage(), e);
        }
    }

    /** Maps a row of {@link #SELECT} (columns prefixed by {@code prefix}, for joins from other readers). */
    public static SourceView map(ResultSet rs, Instant created) throws SQLException {
        String platform = rs.getString("platform");
        SourceView.AdSource ad = platform == null || platform.isEmpty() ? null : new SourceView.AdSource(
                rs.getString("ad_source_id"), emptyToNull(rs.getString("ad_account_id")), platform);
        return new SourceView(rs.getString("name"), rs.getString("tag"), rs.getBoolean("disregarded"),
                rs.getBoolean("organic"), ad,
                named(rs.getObject("traffic_source_id"), rs.getString("ts_name")),
                named(rs.getObject("goal_id"), rs.getString("goal_name")),
                named(rs.getObject("category_id"), rs.getString("category_name")),
                created.toEpochMilli());
    }

    private static SourceView.Named named(Object id, String name) {
        return id == null ? null : new SourceView.Named(id.toString(), name);
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
