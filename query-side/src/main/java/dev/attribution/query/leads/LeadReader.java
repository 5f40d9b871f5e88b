package dev.attribution.query.leads;

import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** Reads leads from PostgreSQL, the system of record, in the LeadWithStage shape. */
@Singleton
public class LeadReader {

    /** Keyset position: leads are listed by join date, then id. */
    public record Cursor(Instant createdAt, String id) {
    }

    public record Page(List<LeadView> leads, Cursor next) {
    }

    /** A lead row in the LeadWithStage shape, whatever the FROM clause that names the leads {@code l}. */
    private static final String COLUMNS = """
            SELECT l.*,
                   (SELECT array_agg(t.tag ORDER BY t.tag) FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id) AS tag_list,
                   (SELECT array_agg(i.ip ORDER BY i.ip) FROM lead_ips i WHERE i.account_id = l.account_id AND i.lead_id = l.id) AS ip_list,
                   (SELECT array_agg(p.phone ORDER BY p.phone) FROM lead_phones p WHERE p.account_id = l.account_id AND p.lead_id = l.id) AS phone_list,
            """ + Attribution.column(true, "first_source") + ",\n" + Attribution.column(false, "last_source") + """

            """;

    private static final String SELECT = COLUMNS + " FROM leads l WHERE l.account_id = ? AND NOT l.erased";

    private final JdbcOperations jdbc;

    public LeadReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Page page(String accountId, ZoneId zone, LeadFilter filter, Cursor after, int pageSize) {
        // Every filter but the stage one, on the leads of the account (alias l), with its arguments.
        StringBuilder where = new StringBuilder(" AND NOT l.erased");
        List<Object> whereArgs = new ArrayList<>();
        if (!filter.ids().isEmpty()) {
            where.append(" AND l.id = ANY(?)");
            whereArgs.add(filter.ids());
        }
        if (!filter.emails().isEmpty()) {
            // Prefix ranges rather than LIKE: they use leads_email_prefix even in a generic (prepared) plan.
            List<String> ranges = new ArrayList<>();
            for (String email : filter.emails()) {
                ranges.add(prefixRange("lower(l.email)", email.toLowerCase(Locale.ROOT), whereArgs));
            }
            where.append(" AND (").append(String.join(" OR ", ranges)).append(")");
        }
        if (!filter.phones().isEmpty()) {
            // Phones match on their last digits, so formatting and country codes are tolerated (spec 4.1): the stored
            // digits end with the filter's, or (7 digits at least) the filter's end with the stored ones. Both are
            // prefix tests on reversed digits, which lead_phones_reversed_digits indexes.
            String digits = "reverse(regexp_replace(p.phone, '[^0-9]', '', 'g'))";
            // Uncorrelated on purpose (account id bound, not l.account_id): PostgreSQL then plans a semi-join on the
            // index instead of a subplan run for every lead of the account.
            whereArgs.add(accountId);
            List<String> conditions = new ArrayList<>();
            for (String phone : filter.phones()) {
                String reversed = new StringBuilder(phone.replaceAll("[^0-9]", "")).reverse().toString();
                if (reversed.isEmpty()) {
                    continue;
                }
                conditions.add(prefixRange(digits, reversed, whereArgs));
                for (int n = 7; n < reversed.length(); n++) {
                    conditions.add(digits + " = ?");
                    whereArgs.add(reversed.substring(0, n));
                }
            }
            where.append(" AND l.id IN (SELECT p.lead_id FROM lead_phones p WHERE p.account_id = ? AND (")
                    .append(conditions.isEmpty() ? "false" : String.join(" OR ", conditions)).append("))");
        }
        if (!filter.tags().isEmpty() || !filter.tagged().isOpen()) {
            where.append(" AND EXISTS (SELECT 1 FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id");
            if (!filter.tags().isEmpty()) {
                where.append(" AND t.tag = ANY(?)");
                whereArgs.add(filter.tags());
            }
            range(where, whereArgs, "t.assigned_at", filter.tagged());
            where.append(")");
        }
        range(where, whereArgs, "l.created_at", filter.joined());
        range(where, whereArgs, "l.updated_at", filter.updated());
        if (after != null) {
            where.append(" AND (l.created_at, l.id) > (?, ?)");
            whereArgs.add(Timestamp.from(after.createdAt()));
            whereArgs.add(after.id());
        }
        StringBuilder sql = new StringBuilder(COLUMNS);
        List<Object> args = new ArrayList<>();
        if (tagsOnly(filter)) {
            return taggedPage(accountId, zone, filter, after, pageSize);
        }
        List<String> stages = filter.stages().stream().map(st -> st.toLowerCase(Locale.ROOT)).distinct().toList();
        if (stages.isEmpty()) {
            sql.append(" FROM leads l WHERE l.account_id = ?").append(where);
            args.add(accountId);
            args.addAll(whereArgs);
        } else {
            // One ordered index range per stage (leads_stage_created: account, stage, join date, id), each cut to a
            // page, merged: as fast for a stage held by half the account as for one nobody holds, whatever the
            // planner guesses about how many leads hold it.
            List<String> branches = new ArrayList<>();
            for (String stage : stages) {
                branches.add("(SELECT l.* FROM leads l WHERE l.account_id = ? AND l.stage_name IS NOT NULL"
                        + " AND lower(l.stage_name) = ?" + where + " ORDER BY l.created_at, l.id LIMIT ?)");
                args.add(accountId);
                args.add(stage);
                args.addAll(whereArgs);
                args.add(pageSize + 1);
            }
            sql.append(" FROM (").append(String.join(" UNION ALL ", branches)).append(") l");
        }
        sql.append(" ORDER BY l.created_at, l.id LIMIT ?");
        args.add(pageSize + 1);
        return toPage(query(jdbc.getConnection(), sql.toString(), args, zone), pageSize);
    }

    /** Tags (with their date range) and the join-date range are the only filters: {@link #taggedPage} applies. */
    private static boolean tagsOnly(LeadFilter f) {
        return !f.tags().isEmpty() && f.ids().isEmpty() && f.emails().isEmpty() && f.phones().isEmpty()
                && f.stages().isEmpty() && f.updated().isOpen();
    }

    /**
     * A page of the leads holding any of the tags: one range of {@code lead_tags_join_order} per tag (holders in
     * join order, cut to a page), merged and de-duplicated, then the page's leads by primary key. Costs the same
     * for a tag held by a few leads early in the account's history as for one held by half of it.
     */
    private Page taggedPage(String accountId, ZoneId zone, LeadFilter filter, Cursor after, int pageSize) {
        List<Object> args = new ArrayList<>();
        List<String> branches = new ArrayList<>();
        for (String tag : filter.tags().stream().distinct().toList()) {
            StringBuilder b = new StringBuilder("(SELECT t.lead_id, t.lead_created_at FROM lead_tags t"
                    + " WHERE t.account_id = ? AND t.tag = ?");
            args.add(accountId);
            args.add(tag);
            range(b, args, "t.assigned_at", filter.tagged());
            range(b, args, "t.lead_created_at", filter.joined());
            if (after != null) {
                b.append(" AND (t.lead_created_at, t.lead_id) > (?, ?)");
                args.add(Timestamp.from(after.createdAt()));
                args.add(after.id());
            }
            b.append(" ORDER BY t.lead_created_at, t.lead_id LIMIT ?)");
            args.add(pageSize + 1);
            branches.add(b.toString());
        }
        String sql = COLUMNS + " FROM (SELECT DISTINCT m.lead_id, m.lead_created_at FROM ("
                + String.join(" UNION ALL ", branches) + ") m ORDER BY m.lead_created_at, m.lead_id LIMIT ?) page"
                + " JOIN leads l ON l.account_id = ? AND l.id = page.lead_id AND NOT l.erased"
                + " ORDER BY l.created_at, l.id";
        args.add(pageSize + 1);
        args.add(accountId);
        return toPage(query(jdbc.getConnection(), sql, args, zone), pageSize);
    }

    /** Rows fetched one past the page size: the page, and the keyset position after it when there is more. */
    private static Page toPage(List<Row> rows, int pageSize) {
        List<LeadView> page = rows.stream().limit(pageSize).map(Row::view).toList();
        if (rows.size() <= pageSize) {
            return new Page(page, null);
        }
        Row last = rows.get(pageSize - 1);
        return new Page(page, new Cursor(last.createdAt(), last.view().id()));
    }

    /** The given leads, in the order of {@code ids}; missing ids are skipped. */
    @Transactional(readOnly = true)
    public List<LeadView> byIds(String accountId, ZoneId zone, List<String> ids) {
        return byIds(jdbc.getConnection(), accountId, zone, ids);
    }

    /** Same, on the caller's connection: a write worker renders its result inside its own transaction. */
    public List<LeadView> byIds(Connection connection, String accountId, ZoneId zone, List<String> ids) {
        List<Row> found = query(connection, SELECT + " AND l.id = ANY(?)", List.of(accountId, ids), zone);
        List<LeadView> ordered = new ArrayList<>();
        for (String id : ids) {
            found.stream().map(Row::view).filter(l -> l.id().equals(id)).findFirst().ifPresent(ordered::add);
        }
        return ordered;
    }

    /** A lead and its exact join instant (the keyset position; the view's date is cut to seconds). */
    private record Row(LeadView view, Instant createdAt) {
    }

    private static List<Row> query(Connection connection, String sql, List<Object> args, ZoneId zone) {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            bind(ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                List<Row> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(new Row(map(rs, zone), rs.getTimestamp("created_at").toInstant()));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("lead query failed: " + e.getMessage(), e);
        }
    }

    private static void range(StringBuilder sql, List<Object> args, String column, DateRange range) {
        range.from().ifPresent(from -> {
            sql.append(" AND ").append(column).append(" >= ?");
            args.add(Timestamp.from(from));
        });
        range.to().ifPresent(to -> {
            sql.append(" AND ").append(column).append(" <= ?");
            args.add(Timestamp.from(to));
        });
    }

    private static void bind(PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof List<?> list) {
                ps.setArray(i + 1, ps.getConnection().createArrayOf("text", list.toArray()));
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }

    private static LeadView map(ResultSet rs, ZoneId zone) throws SQLException {
        String stage = rs.getString("stage_name");
        Timestamp stageDate = rs.getTimestamp("stage_date");
        return new LeadView(
                rs.getString("id"),
                rs.getString("email"),
                ApiDates.format(rs.getTimestamp("created_at").toInstant(), zone),
                ApiDates.format(rs.getTimestamp("updated_at").toInstant(), zone),
                strings(rs.getArray("tag_list")),
                strings(rs.getArray("ip_list")),
                strings(rs.getArray("phone_list")),
                rs.getString("first_name"),
                rs.getString("last_name"),
                rs.getString("ad_consent"),
                stage == null ? null : new LeadView.Stage(stage, stageDate == null ? null : ApiDates.format(stageDate.toInstant(), zone)),
                Attribution.fromColumn(rs.getString("first_source"), zone),
                Attribution.fromColumn(rs.getString("last_source"), zone));
    }

    private static List<String> strings(Array array) throws SQLException {
        return array == null ? List.of() : Arrays.asList((String[]) array.getArray());
    }

    /**
     * {@code expr} starts with {@code prefix}, as a byte-wise range ({@code ~>=~}, {@code ~<~}) that a
     * {@code text_pattern_ops} index serves; the upper bound is the prefix with its last character incremented.
     */
    static String prefixRange(String expr, String prefix, List<Object> args) {
        int last = prefix.codePointBefore(prefix.length());
        String upper = prefix.substring(0, prefix.length() - Character.charCount(last)) + new String(Character.toChars(last + 1));
        args.add(prefix);
        args.add(upper);
        return "(" + expr + " ~>=~ ? AND " + expr + " ~<~ ?)";
    }
}
