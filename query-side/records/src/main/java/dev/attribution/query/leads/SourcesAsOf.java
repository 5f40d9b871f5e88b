package dev.attribution.query.leads;

import dev.attribution.query.support.SqlQuery;
import dev.attribution.views.Attribution;

import java.sql.Connection;
import java.time.Instant;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The first and last sources of sales, calls, carts and subscriptions (spec 2.7–2.10): the touches of their lead made
 * no later than their date, read in one statement for a whole list of (lead, date) pairs after the rows themselves.
 * <p>
 * Planned once per connection ({@link SqlQuery#listPlannedOnce}), as the leads' own sources are
 * ({@link LeadReader}): the subqueries know neither the lead nor the account in any plan, so a kept plan does not
 * depend on the arguments. As columns of each reader's row statement they were planned with it on every call, once
 * per applied order batch (docs/BENCHMARKS.md "The lead render's planning").
 */
public final class SourcesAsOf {

    /** A lead and the date its row's sources are read as of. */
    public record At(String leadId, Instant at) {
    }

    /** A row's sources; both null when its lead has no touch by then. */
    public record Sources(Attribution first, Attribution last) {
        static final Sources NONE = new Sources(null, null);
    }

    /** Arguments: the account, the lead ids, their dates (ISO instants, parallel to the ids). */
    private static final String SQL = "SELECT k.lead_id, k.at_text, "
            + AttributionColumns.columnAsOf(true, "req.account_id", "k.lead_id", "k.at_text::timestamptz", "first_source") + ",\n"
            + AttributionColumns.columnAsOf(false, "req.account_id", "k.lead_id", "k.at_text::timestamptz", "last_source")
            + "\n FROM (SELECT ?::text AS account_id) req CROSS JOIN unnest(?::text[], ?::text[]) AS k(lead_id, at_text)";

    private SourcesAsOf() {
    }

    /** The sources of each pair of {@code pairs} (a pair without lead has none), on the caller's connection. */
    public static Map<At, Sources> read(Connection connection, String accountId, ZoneId zone, List<At> pairs) {
        Set<At> distinct = new LinkedHashSet<>();
        pairs.stream().filter(p -> p.leadId() != null && p.at() != null).forEach(distinct::add);
        Map<At, Sources> out = new HashMap<>();
        if (distinct.isEmpty()) {
            return out;
        }
        List<String> leads = distinct.stream().map(At::leadId).toList();
        List<String> dates = distinct.stream().map(p -> p.at().toString()).toList();
        new SqlQuery(SQL, accountId, leads, dates).listPlannedOnce(connection, rs -> {
            String first = rs.getString(3);
            String last = rs.getString(4);
            Attribution f = AttributionColumns.fromColumn(first, zone);
            // a single touch is first and last: read once
            Attribution l = Objects.equals(first, last) ? f : AttributionColumns.fromColumn(last, zone);
            out.put(new At(rs.getString(1), Instant.parse(rs.getString(2))), new Sources(f, l));
            return null;
        });
        return out;
    }

    /** The sources of {@code pair} in {@code read}'s answer: none when it has no lead or no touch. */
    public static Sources of(Map<At, Sources> read, String leadId, Instant at) {
        return read.getOrDefault(new At(leadId, at), Sources.NONE);
    }
}
