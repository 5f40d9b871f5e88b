package dev.attribution.query.urlrules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
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

    /** A page of rules; {@code next} is the keyset position (creation date, then external id) after it. */
    public record Page(List<UrlRuleView> rules, Keyset next) {
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
    public Page page(String accountId, UrlRuleFilter filter, Keyset after, int pageSize) {
        SqlQuery q = new SqlQuery(SELECT, accountId).anyOf("r.external_id", filter.ids());
        filter.tag().ifPresent(t -> q.and("AND r.tag = ?", t));
        filter.actionType().ifPresent(t -> q.and("AND r.action_type = ?", t));
        filter.created().from().ifPresent(f -> q.and("AND r.created_at >= ?", Timestamp.from(f)));
        filter.created().to().ifPresent(t -> q.and("AND r.created_at <= ?", SqlQuery.upperBound(t)));
        q.after("r.created_at", "r.external_id", after).and("ORDER BY r.created_at, r.external_id LIMIT ?", pageSize + 1);
        Keyset.Cut<Row> cut = Keyset.cut(query(jdbc.getConnection(), q), pageSize, r -> new Keyset(r.createdAt(), r.view().id()));
        return new Page(cut.rows().stream().map(Row::view).toList(), cut.next());
    }

    @Transactional(readOnly = true)
    public Optional<UrlRuleView> one(String accountId, String externalId) {
        return query(jdbc.getConnection(), new SqlQuery(SELECT + " AND r.external_id = ?", accountId, externalId))
                .stream().findFirst().map(Row::view);
    }

    private record Row(UrlRuleView view, Instant createdAt) {
    }

    private static List<Row> query(Connection connection, SqlQuery q) {
        return q.list(connection, rs -> {
            Instant created = rs.getTimestamp("created_at").toInstant();
            return new Row(map(rs, created), created);
        });
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
