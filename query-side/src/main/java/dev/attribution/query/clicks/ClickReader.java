package dev.attribution.query.clicks;

import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
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

    /** Keyset position: clicks are listed by date, then id. */
    public record Cursor(Instant date, String id) {
    }

    public record Page(List<ClickView> clicks, Cursor next) {
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
    public Page page(String accountId, ZoneId zone, Selection selection, DateRange range, Cursor after, int pageSize) {
        Connection c = jdbc.getConnection();
        try {
            List<String> leadIds = new ArrayList<>();
            Instant earliestJoin = null;
            try (PreparedStatement ps = c.prepareStatement("""
                    SELECT id, created_at FROM leads WHERE account_id = ? AND NOT erased
                      AND (id = ANY(?) OR lower(email) = ANY(?))""")) {
                List<String> ids = selection.leadId() != null ? List.of(selection.leadId()) : selection.leadIds();
                ps.setString(1, accountId);
                ps.setArray(2, c.createArrayOf("text", ids.toArray()));
                ps.setArray(3, c.createArrayOf("text", selection.emails().stream().map(e -> e.toLowerCase(Locale.ROOT)).toArray()));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        leadIds.add(rs.getString(1));
                        Instant joined = rs.getTimestamp(2).toInstant();
                        earliestJoin = earliestJoin == null || joined.isBefore(earliestJoin) ? joined : earliestJoin;
                    }
                }
            }
            if (leadIds.isEmpty()) {
                return new Page(List.of(), null);
            }
            Instant lower = range.from().orElse(earliestJoin.minus(DEFAULT_LOOKBACK));
            StringBuilder sql = new StringBuilder(SELECT).append(" AND c.lead_id = ANY(?) AND c.click_date >= ?");
            List<Object> args = new ArrayList<>(List.of(accountId, leadIds, Timestamp.from(lower)));
            range.to().ifPresent(to -> {
                sql.append(" AND c.click_date <= ?");
                args.add(Timestamp.from(to));
            });
            if (after != null) {
                sql.append(" AND (c.click_date, c.id) > (?, ?)");
                args.add(Timestamp.from(after.date()));
                args.add(after.id());
            }
            sql.append(" ORDER BY c.click_date, c.id LIMIT ?");
            args.add(pageSize + 1);
            List<Row> rows = query(c, sql.toString(), args, zone);
            List<ClickView> page = rows.stream().limit(pageSize).map(Row::view).toList();
            if (rows.size() <= pageSize) {
                return new Page(page, null);
            }
            Row last = rows.get(pageSize - 1);
            return new Page(page, new Cursor(last.date(), last.view().id()));
        } catch (SQLException e) {
            throw new IllegalStateException("click query failed: " + e.getMessage(), e);
        }
    }

    /** One click on the caller's connection (the result of a processed CREATE_CLICK). */
    public Optional<ClickView> byId(Connection c, String accountId, ZoneId zone, String id) {
        return query(c, SELECT + " AND c.id = ?", List.of(accountId, id), zone).stream().findFirst().map(Row::view);
    }

    private record Row(ClickView view, Instant date) {
    }

    private static List<Row> query(Connection c, String sql, List<Object> args, ZoneId zone) {
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
                    Instant date = rs.getTimestamp("click_date").toInstant();
                    out.add(new Row(map(rs, zone, date), date));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("click query failed: " + e.getMessage(), e);
        }
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
