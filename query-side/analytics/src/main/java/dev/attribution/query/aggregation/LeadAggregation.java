package dev.attribution.query.aggregation;

import dev.attribution.api.LeadFilter;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.DateRange;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code GET /leads/aggregation} on ClickHouse (spec 4.1, 2.18). Reads the deduplicated views
 * ({@code leads_current}, {@code lead_tags_current}), so an updated or deleted lead is counted as it is now.
 */
@Singleton
public class LeadAggregation {

    public enum Attribute { TAG, STAGE, FIRST_SOURCE_TAG, LAST_SOURCE_TAG }

    private final ClickHouseGateway clickHouse;

    public LeadAggregation(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    /**
     * Groups and totals from one statement (issue 22 item 20): every matching lead with the array of its keys, each
     * key counted once plus a sentinel per lead ({@code '\0'}, never a key: text holds no NUL), so {@code totalCount},
     * the grouped count and the top groups come from one read of each table and cannot contradict each other while
     * CDC writes (two reads could give {@code groups: []} with {@code remainingCount: 2} and {@code totalCount: 1}).
     * Valid on ClickHouse 18.16 and current releases (no sumMap on strings, no window functions).
     */
    public AggregationResult aggregate(String accountId, Attribute attribute, LeadFilter filter, int groupsLimit) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String perLead = switch (attribute) {
            case TAG -> "SELECT id, keys FROM (" + matchingLeads(db, accountId, filter, "id") + ") AS l ANY LEFT JOIN (SELECT lead_id AS id, "
                    + "groupArray(tag) AS keys FROM " + db + ".lead_tags_current WHERE account_id = " + acc + " GROUP BY lead_id) AS k USING id";
            case STAGE -> matchingLeads(db, accountId, filter, "id, if(stage_name != '', [stage_name], emptyArrayString()) AS keys");
            // A lead's source touches: its @ tags and its clicks on source links; first = earliest, last = latest.
            case FIRST_SOURCE_TAG, LAST_SOURCE_TAG -> "SELECT id, keys FROM (" + matchingLeads(db, accountId, filter, "id")
                    + ") AS l ANY LEFT JOIN (SELECT lead_id AS id, [" + (attribute == Attribute.FIRST_SOURCE_TAG ? "argMin" : "argMax")
                    + "(tag, d)] AS keys FROM (SELECT lead_id, tag, assigned_at AS d FROM " + db + ".lead_tags_current WHERE account_id = "
                    + acc + " AND tag LIKE '@%' UNION ALL SELECT lead_id, source_link_tag AS tag, click_date AS d FROM "
                    + db + ".clicks_current WHERE account_id = " + acc
                    + " AND lead_id != '' AND source_link_tag != '') AS touches GROUP BY lead_id) AS k USING id";
        };
        JsonNode row = clickHouse.select("SELECT sumIf(c, key = '\\0') AS total, sumIf(c, key != '\\0') AS grouped, "
                + "arraySlice(arraySort(g -> (-toInt64(tupleElement(g, 2)), tupleElement(g, 1)), groupArrayIf((key, c), key != '\\0')), 1, "
                + groupsLimit + ") AS top FROM (SELECT key, count() AS c FROM (" + perLead + ") AS per_lead "
                + "ARRAY JOIN arrayPushBack(keys, '\\0') AS key GROUP BY key)").get(0);
        List<AggregationResult.Group> groups = new ArrayList<>();
        long returned = 0;
        for (JsonNode g : row.get("top")) {
            long c = g.get(1).asLong();
            groups.add(new AggregationResult.Group(g.get(0).asText(), c));
            returned += c;
        }
        return new AggregationResult(groups, row.get("grouped").asLong() - returned, row.get("total").asLong());
    }

    /** The ids of the account's current leads matching every filter. */
    static String matchingLeads(String db, String accountId, LeadFilter f) {
        return matchingLeads(db, accountId, f, "id");
    }

    /** {@link #matchingLeads(String, String, LeadFilter)} selecting {@code columns} of {@code leads_current}. */
    static String matchingLeads(String db, String accountId, LeadFilter f, String columns) {
        StringBuilder sql = new StringBuilder("SELECT ").append(columns).append(" FROM ").append(db).append(".leads_current WHERE account_id = ")
                .append(ClickHouseSql.str(accountId));
        if (!f.ids().isEmpty()) {
            sql.append(" AND id IN ").append(ClickHouseSql.strList(f.ids()));
        }
        if (!f.emails().isEmpty()) {
            List<String> likes = f.emails().stream()
                    .map(e -> "lower(email) LIKE " + ClickHouseSql.str(likePrefix(e.toLowerCase(Locale.ROOT)))).toList();
            sql.append(" AND (").append(String.join(" OR ", likes)).append(')');
        }
        if (!f.phones().isEmpty()) {
            List<String> likes = f.phones().stream()
                    .map(p -> "replaceRegexpAll(phone, '[^0-9]', '') LIKE " + ClickHouseSql.str("%" + p.replaceAll("[^0-9]", ""))).toList();
            sql.append(" AND id IN (SELECT lead_id FROM ").append(db).append(".lead_phones_current WHERE account_id = ")
                    .append(ClickHouseSql.str(accountId)).append(" AND (").append(String.join(" OR ", likes)).append("))");
        }
        if (!f.tags().isEmpty() || !f.tagged().isOpen()) {
            sql.append(" AND id IN (SELECT lead_id FROM ").append(db).append(".lead_tags_current WHERE account_id = ")
                    .append(ClickHouseSql.str(accountId));
            if (!f.tags().isEmpty()) {
                sql.append(" AND tag IN ").append(ClickHouseSql.strList(f.tags()));
            }
            range(sql, "assigned_at", f.tagged());
            sql.append(')');
        }
        if (!f.stages().isEmpty()) {
            sql.append(" AND lower(stage_name) IN ").append(ClickHouseSql.strList(
                    f.stages().stream().map(s -> s.toLowerCase(Locale.ROOT)).toList()));
        }
        range(sql, "created_at", f.joined());
        range(sql, "updated_at", f.updated());
        return sql.toString();
    }

    private static void range(StringBuilder sql, String column, DateRange range) {
        range.from().ifPresent(from -> sql.append(" AND ").append(column).append(" >= ").append(ClickHouseSql.dateTime(from)));
        range.to().ifPresent(to -> sql.append(" AND ").append(column).append(" <= ").append(ClickHouseSql.dateTime(floorSecond(to))));
    }

    private static Instant floorSecond(Instant i) {
        return Instant.ofEpochSecond(i.getEpochSecond());
    }

    private static String likePrefix(String prefix) {
        return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
    }
}
