package dev.attribution.query.urlrules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads the API-managed (SIMPLE) URL rules from PostgreSQL in the UrlRule shape. */
@Singleton
public class UrlRuleReader {

    /** Keyset position: rules are listed by creation date, then external id. */
    public record Cursor(Instant createdAt, String externalId) {
    }

    public record Page(List<UrlRuleView> rules, Cursor next) {
    }

    private static final String SELECT = """
            SELECT r.*, ts.name AS traffic_source_name, sc.name AS source_category_name
            FROM url_rules r
            LEFT JOIN traffic_sources ts ON ts.account_id = r.account_id AND ts.id = r.traffic_source_id
            LEFT JOIN source_categories sc ON sc.account_id = r.account_id AND sc.id = r.source_category_id
            WHERE r.account_id = ? AND r.rule_type = 'SIMPLE'""";

    private final JdbcOperations jdbc;

    public UrlRuleReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Page page(String accountId, UrlRuleFilter filter, Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder(SELECT);
        List<Object> args = new ArrayList<>();
        args.add(accountId);
        if (!filter.ids().isEmpty()) {
            sql.append(" AND r.external_id = ANY(?)");
            args.add(filter.ids());
        }
        filter.tag().ifPresent(t -> {
            sql.append(" AND r.tag = ?");
            args.add(t);
        });
        filter.actionType().ifPresent(t -> {
            sql.append(" AND r.action_type = ?");
            args.add(t);
        });
        filter.created().from().ifPresent(f -> {
            sql.append(" AND r.created_at >= ?");
            args.add(Timestamp.from(f));
        });
        filter.created().to().ifPresent(t -> {
            sql.append(" AND r.created_at <= ?");
            args.add(Timestamp.from(t.truncatedTo(java.time.temporal.ChronoUnit.MICROS)));
        });
        if (after != null) {
            sql.append(" AND (r.created_at, r.external_id) > (?, ?)");
            args.add(Timestamp.from(after.createdAt()));
            args.add(after.externalId());
        }
        sql.append(" ORDER BY r.created_at, r.external_id LIMIT ?");
        args.add(pageSize + 1);
        List<Row> rows = query(jdbc.getConnection(), sql.toString(), args);
        List<UrlRuleView> page = rows.stream().limit(pageSize).map(Row::view).toList();
        if (rows.size() <= pageSize) {
            return new Page(page, null);
        }
        Row last = rows.get(pageSize - 1);
        return new Page(page, new Cursor(last.createdAt(), last.view().id()));
    }

    @Transactional(readOnly = true)
    public Optional<UrlRuleView> one(String accountId, String externalId) {
        return query(jdbc.getConnection(), SELECT + " AND r.external_id = ?", List.of(accountId, externalId))
                .stream().findFirst().map(Row::view);
    }

    private record Row(UrlRuleView view, Instant createdAt) {
    }

    private static List<Row> query(Connection connection, String sql, List<Object> args) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof List<?> list) {
                    ps.setArray(i + 1, connection.createArrayOf("text", list.toArray()));
                } else {
                    ps.setObject(i + 1, a);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<Row> out = new ArrayList<>();
                while (rs.next()) {
                    Instant created = rs.getTimestamp("created_at").toInstant();
                    out.add(new Row(map(rs, created), created));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("url rule query failed: " + e.getMessage(), e);
        }
    }

    private static UrlRuleView map(ResultSet rs, Instant created) throws SQLException {
        String type = rs.getString("action_type");
        return new UrlRuleView(
                rs.getString("external_id"),
                rs.getString("name"),
                rs.getString("tag"),
                strings(rs.getArray("words_to_match")),
                strings(rs.getArray("words_not_to_match")),
                strings(rs.getArray("source_rule_types")),
                rs.getBoolean("apply_base_domain"),
                rs.getBoolean("disregard_source"),
                strings(rs.getArray("traffic_source_to_match")),
                strings(rs.getArray("source_category_to_match")),
                rs.getString("traffic_source_name"),
                rs.getString("source_category_name"),
                scores(rs.getString("scores")),
                type,
                "SIMPLE",
                rs.getBoolean("is_enabled"),
                "LEAD_STAGE".equals(type),
                ApiDates.formatUtc(created));
    }

    static List<UrlRuleView.Score> scores(String json) {
        try {
            JsonNode array = JsonBody.mapper().readTree(json);
            List<UrlRuleView.Score> out = new ArrayList<>();
            for (JsonNode s : array) {
                List<String> keywords = new ArrayList<>();
                s.get("keywords").forEach(k -> keywords.add(k.asText()));
                out.add(new UrlRuleView.Score(keywords, new BigDecimal(s.get("score").asText())));
            }
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("bad scores " + json, e);
        }
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }
}
