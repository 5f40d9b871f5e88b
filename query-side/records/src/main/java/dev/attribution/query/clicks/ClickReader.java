package dev.attribution.query.clicks;

import dev.attribution.views.ClickView;

import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Reads clicks from PostgreSQL in the Click shape of spec 2.11. */
@Singleton
public class ClickReader {

    /** How far before the earliest join date the default lower bound of {@code GET /leads/clicks} reaches. */
    static final Duration DEFAULT_LOOKBACK = Duration.ofDays(90);

    /** A page of clicks; {@code next} is the keyset position (click date, then id) after it. */
    public record Page(List<ClickView> clicks, Keyset next) {
    }

    /** Which leads to read clicks of: exactly one of the three is set. */
    public record Selection(String leadId, List<String> leadIds, List<String> emails) {
    }

    private static final String SELECT = """
            SELECT c.*, l.email FROM clicks c
            LEFT JOIN leads l ON l.account_id = c.account_id AND l.id = c.lead_id
            WHERE c.account_id = ?""";

    private final JdbcOperations jdbc;

    public ClickReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The clicks of the selected leads, oldest first across leads (spec 4.1 {@code GET /leads/clicks}). */
    @Transactional(readOnly = true)
    public Page page(String accountId, ZoneId zone, Selection selection, DateRange range, Keyset after, int pageSize) {
        Connection c = jdbc.getConnection();
        List<String> ids = selection.leadId() != null ? List.of(selection.leadId()) : selection.leadIds();
        List<String> emails = selection.emails().stream().map(e -> e.toLowerCase(Locale.ROOT)).toList();
        List<Lead> leads = new SqlQuery("""
                SELECT id, created_at FROM leads WHERE account_id = ? AND NOT erased
                  AND (id = ANY(?) OR lower(email) = ANY(?))""", accountId, ids, emails)
                .list(c, rs -> new Lead(rs.getString(1), rs.getTimestamp(2).toInstant()));
        if (leads.isEmpty()) {
            return new Page(List.of(), null);
        }
        Instant earliestJoin = leads.stream().map(Lead::joined).min(Comparator.naturalOrder()).orElseThrow();
        Instant lower = range.from().orElse(earliestJoin.minus(DEFAULT_LOOKBACK));
        SqlQuery q = new SqlQuery(SELECT + " AND c.lead_id = ANY(?) AND c.click_date >= ?",
                accountId, leads.stream().map(Lead::id).toList(), Timestamp.from(lower));
        range.to().ifPresent(to -> q.and("AND c.click_date <= ?", SqlQuery.upperBound(to)));
        q.after("c.click_date", "c.id", after).and("ORDER BY c.click_date, c.id LIMIT ?", pageSize + 1);
        Keyset.Cut<Row> cut = Keyset.cut(query(c, q, zone), pageSize, r -> new Keyset(r.date(), r.view().id()));
        return new Page(cut.rows().stream().map(Row::view).toList(), cut.next());
    }

    private record Lead(String id, Instant joined) {
    }

    /** One click on the caller's connection (the result of a processed CREATE_CLICK). */
    public Optional<ClickView> byId(Connection c, String accountId, ZoneId zone, String id) {
        return query(c, new SqlQuery(SELECT + " AND c.id = ?", accountId, id), zone).stream().findFirst().map(Row::view);
    }

    /** Clicks by id on the caller's connection (the results of a group of processed CREATE_CLICK); absent ids are left out. */
    public Map<String, ClickView> byIds(Connection c, String accountId, ZoneId zone, List<String> ids) {
        Map<String, ClickView> out = new java.util.HashMap<>();
        for (Row r : query(c, new SqlQuery(SELECT + " AND c.id = ANY(?)", accountId, ids), zone)) {
            out.put(r.view().id(), r.view());
        }
        return out;
    }

    private record Row(ClickView view, Instant date) {
    }

    private static List<Row> query(Connection c, SqlQuery q, ZoneId zone) {
        return q.list(c, rs -> {
            Instant date = rs.getTimestamp("click_date").toInstant();
            return new Row(map(rs, zone, date), date);
        });
    }

    private static ClickView map(ResultSet rs, ZoneId zone, Instant date) throws SQLException {
        String tag = rs.getString("source_link_tag");
        String adSourceId = rs.getString("ad_source_id");
        Map<String, String> dedup = new LinkedHashMap<>();
        putIfPresent(dedup, "sessionId", rs.getString("session_id"));
        putIfPresent(dedup, "adSourceClickId", rs.getString("ad_source_click_id"));
        putIfPresent(dedup, "adspendAdId", rs.getString("adspend_ad_id"));
        putIfPresent(dedup, "adSourceId", adSourceId);
        String leadId = rs.getString("lead_id");
        return new ClickView(
                rs.getString("id"),
                leadId == null ? "" : leadId,
                leadId == null || rs.getString("email") == null ? "" : rs.getString("email"),
                ApiDates.formatLegacy(date, zone),
                rs.getString("tracked_url"),
                rs.getString("previous_url"),
                rs.getString("ip"),
                rs.getString("user_agent"),
                tag == null ? null : tag.substring(1),
                tag,
                rs.getString("integration_type"),
                adSourceId != null && adSourceId.matches("\\d{1,18}") ? Long.valueOf(adSourceId) : null,
                dedup,
                parameters(rs.getString("tracked_url")));
    }

    private static void putIfPresent(Map<String, String> map, String key, String value) {
        if (value != null && !value.isBlank()) {
            map.put(key, value);
        }
    }

    /** The query parameters of the tracked URL (first value of each). */
    static Map<String, String> parameters(String url) {
        Map<String, String> out = new LinkedHashMap<>();
        try {
            String query = URI.create(url.trim().replace(" ", "%20")).getRawQuery();
            if (query == null) {
                return out;
            }
            for (String pair : query.split("&")) {
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                if (!k.isEmpty()) {
                    out.putIfAbsent(k, v);
                }
            }
        } catch (IllegalArgumentException e) {
            // not a URL: no parameters
        }
        return out;
    }
}
