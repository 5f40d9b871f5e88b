package dev.attribution.query.sources;

import dev.attribution.views.SourceView;

import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads live (not soft-deleted) sources from PostgreSQL in the Source shape of spec 2.13. */
@Singleton
public class SourceReader {

    public record Page(List<SourceView> sources, Keyset next) {
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
    public Page page(String accountId, SourceFilter f, Keyset after, int pageSize) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("s.ad_source_id", f.adSourceIds());
        if (!f.includeOrganic()) {
            q.and("AND NOT s.organic");
        }
        if (!f.includeDisregarded()) {
            q.and("AND NOT s.disregarded");
        }
        f.platform().ifPresent(p -> q.and("AND s.platform = ?", p));
        f.name().ifPresent(n -> q.and("AND lower(s.name) = ?", n.toLowerCase(Locale.ROOT)));
        f.tag().ifPresent(t -> q.and("AND lower(s.tag) = ?", t.toLowerCase(Locale.ROOT)));
        q.after("s.created_at", "s.id", after).and("ORDER BY s.created_at, s.id LIMIT ?", pageSize + 1);
        Keyset.Cut<Row> cut = Keyset.cut(query(jdbc.getConnection(), q), pageSize, r -> new Keyset(r.createdAt(), r.id()));
        return new Page(cut.rows().stream().map(Row::view).toList(), cut.next());
    }

    /** One live source by id, on the caller's connection (write handlers render their result with it). */
    public Optional<SourceView> byId(Connection c, String accountId, String id) {
        return query(c, new SqlQuery(SELECT + " AND s.id = ?", accountId, id)).stream().findFirst().map(Row::view);
    }

    /** The live source carrying {@code tag} (case-insensitive), if any: its id. */
    @Transactional(readOnly = true)
    public Optional<String> idByTag(String accountId, String tag) {
        return query(jdbc.getConnection(), new SqlQuery(SELECT + " AND lower(s.tag) = lower(?)", accountId, tag))
                .stream().findFirst().map(Row::id);
    }

    private record Row(SourceView view, Instant createdAt, String id) {
    }

    private static List<Row> query(Connection c, SqlQuery q) {
        return q.list(c, rs -> {
            Instant created = rs.getTimestamp("created_at").toInstant();
            return new Row(map(rs, created), created, rs.getString("id"));
        });
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
