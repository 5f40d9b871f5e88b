package dev.attribution.query.leads;

import dev.attribution.api.LeadFilter;
import dev.attribution.views.LeadView;
import dev.attribution.views.Attribution;

import dev.attribution.api.ApiDates;
import dev.attribution.query.support.Keyset;
import dev.attribution.query.support.SqlQuery;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Array;
import java.sql.Connection;
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

    /** A page of leads; {@code next} is the keyset position (join date, then id) after it. */
    public record Page(List<LeadView> leads, Keyset next) {
    }

    /**
     * A lead row in the LeadWithStage shape but its sources, whatever the FROM clause that names the leads {@code l}:
     * the sources are read after, for the leads found ({@link #SOURCES_BY_IDS}).
     */
    private static final String LEAD_COLUMNS = """
            SELECT l.*,
                   (SELECT array_agg(t.tag ORDER BY t.tag) FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id) AS tag_list,
                   (SELECT array_agg(i.ip ORDER BY i.ip) FROM lead_ips i WHERE i.account_id = l.account_id AND i.lead_id = l.id) AS ip_list,
                   (SELECT array_agg(p.phone ORDER BY p.phone) FROM lead_phones p WHERE p.account_id = l.account_id AND p.lead_id = l.id) AS phone_list""";

    /**
     * The account's leads of an id list, without their sources (arguments: the ids, then the account): one primary-key
     * lookup per id, a nested loop that {@code OFFSET 0} keeps from being flattened into a join the planner may choose
     * otherwise. With {@code l.id = ANY(?)} a cached generic plan made while the statistics still said "few leads"
     * scanned the account's whole {@code leads_email_prefix} index on every call (8 ms per write batch at 5,000 leads,
     * growing with the account; auto_explain, docs/BENCHMARKS.md). So this statement is planned for its arguments on
     * every call, which is cheap without the sources (1.3–2.8 ms with them, docs/BENCHMARKS.md "The lead render's
     * planning").
     */
    private static final String BY_IDS = LEAD_COLUMNS + """

             FROM unnest(?::text[]) AS k(id)
            CROSS JOIN LATERAL (SELECT * FROM leads WHERE account_id = ? AND id = k.id AND NOT erased OFFSET 0) l""";

    /**
     * The first and last sources of an account's leads by id (arguments: the account, then the ids). Planned once per
     * connection ({@link SqlQuery#listPlannedOnce}): its plan is its source subqueries, which know neither the lead nor
     * the account in any plan (correlated to the lead row when they were columns of the lead statement), so a plan kept
     * does not depend on the arguments. As columns of the lead statement they were planned with it on every call: 1.7
     * of the 2.0 ms its planning took on an idle machine (3–4 ms at 200 writes/s, once per write batch), against
     * 0.3 ms to run it (docs/BENCHMARKS.md "The lead render's planning").
     */
    private static final String SOURCES_BY_IDS = "SELECT k.id, " + AttributionColumns.column(true, "req.account_id", "k.id", "first_source") + ",\n"
            + AttributionColumns.column(false, "req.account_id", "k.id", "last_source")
            + "\n FROM (SELECT ?::text AS account_id) req CROSS JOIN unnest(?::text[]) AS k(id)";

    private final JdbcOperations jdbc;

    public LeadReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public Page page(String accountId, ZoneId zone, LeadFilter filter, Keyset after, int pageSize) {
        // Every filter but the stage one, on the leads of the account (alias l), with its arguments.
        SqlQuery where = new SqlQuery("AND NOT l.erased").anyOf("l.id", filter.ids());
        if (!filter.emails().isEmpty()) {
            // Prefix ranges rather than LIKE: they use leads_email_prefix even in a generic (prepared) plan.
            List<Object> args = new ArrayList<>();
            List<String> ranges = new ArrayList<>();
            for (String email : filter.emails()) {
                ranges.add(prefixRange("lower(l.email)", email.toLowerCase(Locale.ROOT), args));
            }
            where.and("AND (" + String.join(" OR ", ranges) + ")", args.toArray());
        }
        if (!filter.phones().isEmpty()) {
            // Phones match on their last digits, so formatting and country codes are tolerated (spec 4.1): the stored
            // digits end with the filter's, or (7 digits at least) the filter's end with the stored ones. Both are
            // prefix tests on reversed digits, which lead_phones_reversed_digits indexes.
            String digits = "reverse(regexp_replace(p.phone, '[^0-9]', '', 'g'))";
            // Uncorrelated on purpose (account id bound, not l.account_id): PostgreSQL then plans a semi-join on the
            // index instead of a subplan run for every lead of the account.
            List<Object> args = new ArrayList<>();
            args.add(accountId);
            List<String> conditions = new ArrayList<>();
            for (String phone : filter.phones()) {
                String reversed = new StringBuilder(phone.replaceAll("[^0-9]", "")).reverse().toString();
                if (reversed.isEmpty()) {
                    continue;
                }
                conditions.add(prefixRange(digits, reversed, args));
                for (int n = 7; n < reversed.length(); n++) {
                    conditions.add(digits + " = ?");
                    args.add(reversed.substring(0, n));
                }
            }
            where.and("AND l.id IN (SELECT p.lead_id FROM lead_phones p WHERE p.account_id = ? AND ("
                    + (conditions.isEmpty() ? "false" : String.join(" OR ", conditions)) + "))", args.toArray());
        }
        if (!filter.tags().isEmpty() || !filter.tagged().isOpen()) {
            where.and("AND EXISTS (SELECT 1 FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id")
                    .anyOf("t.tag", filter.tags())
                    .range("t.assigned_at", filter.tagged())
                    .and(")");
        }
        where.range("l.created_at", filter.joined())
                .range("l.updated_at", filter.updated())
                .after("l.created_at", "l.id", after);
        if (tagsOnly(filter)) {
            return taggedPage(accountId, zone, filter, after, pageSize);
        }
        SqlQuery sql = new SqlQuery(LEAD_COLUMNS);
        List<String> stages = filter.stages().stream().map(st -> st.toLowerCase(Locale.ROOT)).distinct().toList();
        if (stages.isEmpty()) {
            sql.and("FROM leads l WHERE l.account_id = ?", accountId).and(where);
        } else {
            // One ordered index range per stage (leads_stage_created: account, stage, join date, id), each cut to a
            // page, merged: as fast for a stage held by half the account as for one nobody holds, whatever the
            // planner guesses about how many leads hold it.
            sql.and("FROM (");
            for (int i = 0; i < stages.size(); i++) {
                sql.and((i == 0 ? "" : "UNION ALL ") + "(SELECT l.* FROM leads l WHERE l.account_id = ? AND l.stage_name IS NOT NULL"
                        + " AND lower(l.stage_name) = ?", accountId, stages.get(i))
                        .and(where)
                        .and("ORDER BY l.created_at, l.id LIMIT ?)", pageSize + 1);
            }
            sql.and(") l");
        }
        sql.and("ORDER BY l.created_at, l.id LIMIT ?", pageSize + 1);
        return toPage(query(jdbc.getConnection(), accountId, sql, zone), pageSize);
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
    private Page taggedPage(String accountId, ZoneId zone, LeadFilter filter, Keyset after, int pageSize) {
        SqlQuery sql = new SqlQuery(LEAD_COLUMNS + " FROM (SELECT DISTINCT m.lead_id, m.lead_created_at FROM (");
        List<String> tags = filter.tags().stream().distinct().toList();
        for (int i = 0; i < tags.size(); i++) {
            sql.and((i == 0 ? "" : "UNION ALL ") + "(SELECT t.lead_id, t.lead_created_at FROM lead_tags t"
                            + " WHERE t.account_id = ? AND t.tag = ?", accountId, tags.get(i))
                    .range("t.assigned_at", filter.tagged())
                    .range("t.lead_created_at", filter.joined())
                    .after("t.lead_created_at", "t.lead_id", after)
                    .and("ORDER BY t.lead_created_at, t.lead_id LIMIT ?)", pageSize + 1);
        }
        sql.and(") m ORDER BY m.lead_created_at, m.lead_id LIMIT ?) page", pageSize + 1)
                .and("JOIN leads l ON l.account_id = ? AND l.id = page.lead_id AND NOT l.erased", accountId)
                .and("ORDER BY l.created_at, l.id");
        return toPage(query(jdbc.getConnection(), accountId, sql, zone), pageSize);
    }

    /** Rows fetched one past the page size: the page, and the keyset position after it when there is more. */
    private static Page toPage(List<Row> rows, int pageSize) {
        Keyset.Cut<Row> cut = Keyset.cut(rows, pageSize, r -> new Keyset(r.createdAt(), r.view().id()));
        return new Page(cut.rows().stream().map(Row::view).toList(), cut.next());
    }

    /** The given leads, in the order of {@code ids}; missing ids are skipped. */
    @Transactional(readOnly = true)
    public List<LeadView> byIds(String accountId, ZoneId zone, List<String> ids) {
        return byIds(jdbc.getConnection(), accountId, zone, ids);
    }

    /** Same, on the caller's connection: a write worker renders its result inside its own transaction. */
    public List<LeadView> byIds(Connection connection, String accountId, ZoneId zone, List<String> ids) {
        List<Row> found = withOrigins(connection, accountId, byIdRows(connection, accountId, ids, zone), zone);
        java.util.Map<String, LeadView> byId = new java.util.HashMap<>();
        for (Row r : found) {
            byId.putIfAbsent(r.view().id(), r.view());
        }
        List<LeadView> ordered = new ArrayList<>();
        for (String id : ids) {
            LeadView lead = byId.get(id);
            if (lead != null) {
                ordered.add(lead);
            }
        }
        return ordered;
    }

    /** A lead's first and last source touches as JSON ({@link AttributionColumns}). */
    private record Sources(String leadId, String first, String last) {
    }

    /** A lead and its exact join instant (the keyset position; the view's date is cut to seconds). */
    private record Row(LeadView view, Instant createdAt, String originId) {
    }

    /**
     * The leads of {@code q}, each with its origin lead (spec 2.5 {@code originLead}, set by an order with
     * {@code parentEmail}) nested one level deep, read in one more query for the whole list.
     */
    private static List<Row> query(Connection connection, String accountId, SqlQuery q, ZoneId zone) {
        return withOrigins(connection, accountId, withSources(connection, accountId, rows(connection, q, zone), zone), zone);
    }

    /** {@code rows}, each with its origin lead nested ({@link #query}). */
    private static List<Row> withOrigins(Connection connection, String accountId, List<Row> rows, ZoneId zone) {
        List<String> originIds = rows.stream().map(Row::originId).filter(java.util.Objects::nonNull).distinct().toList();
        if (originIds.isEmpty()) {
            return rows;
        }
        java.util.Map<String, LeadView> origins = new java.util.HashMap<>();
        for (Row o : byIdRows(connection, accountId, originIds, zone)) {
            origins.put(o.view().id(), o.view());
        }
        return rows.stream().map(r -> r.originId() == null || !origins.containsKey(r.originId()) ? r
                : new Row(r.view().withOrigin(origins.get(r.originId())), r.createdAt(), r.originId())).toList();
    }

    /** The leads of {@code q} ({@link #LEAD_COLUMNS}), without their sources. */
    private static List<Row> rows(Connection connection, SqlQuery q, ZoneId zone) {
        return q.list(connection, rs -> new Row(map(rs, zone), rs.getTimestamp("created_at").toInstant(), rs.getString("origin_lead_id")));
    }

    /** The leads of {@code ids} ({@link #BY_IDS}) with their sources. */
    private static List<Row> byIdRows(Connection connection, String accountId, List<String> ids, ZoneId zone) {
        return withSources(connection, accountId, rows(connection, new SqlQuery(BY_IDS, ids, accountId), zone), zone);
    }

    /** {@code rows} with their first and last sources, read in one statement ({@link #SOURCES_BY_IDS}). */
    private static List<Row> withSources(Connection connection, String accountId, List<Row> rows, ZoneId zone) {
        if (rows.isEmpty()) {
            return rows;
        }
        java.util.Map<String, Sources> sources = new java.util.HashMap<>();
        new SqlQuery(SOURCES_BY_IDS, accountId, rows.stream().map(r -> r.view().id()).distinct().toList())
                .listPlannedOnce(connection, rs -> new Sources(rs.getString(1), rs.getString(2), rs.getString(3)))
                .forEach(s -> sources.put(s.leadId(), s));
        return rows.stream().map(r -> {
            Sources s = sources.get(r.view().id());
            if (s == null) {
                return r;
            }
            Attribution first = AttributionColumns.fromColumn(s.first(), zone);
            // a lead with one touch has it as first and last source: read once (a record, so one value serves both)
            Attribution last = java.util.Objects.equals(s.first(), s.last()) ? first : AttributionColumns.fromColumn(s.last(), zone);
            return new Row(r.view().withSources(first, last), r.createdAt(), r.originId());
        }).toList();
    }

    /** A lead row without its sources. */
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
                stage == null ? null : new LeadView.Stage(stage, stageDate == null ? null : ApiDates.format(stageDate.toInstant(), zone)));
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
