package dev.attribution.query.leads;

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

    public AggregationResult aggregate(String accountId, Attribute attribute, LeadFilter filter, int groupsLimit) {
        String db = clickHouse.database();
        String leads = matchingLeads(db, accountId, filter);
        String pairs = switch (attribute) {
            case TAG -> "SELECT lead_id, tag AS key FROM " + db + ".lead_tags_current WHERE account_id = "
                    + ClickHouseSql.str(accountId) + " AND lead_id IN (" + leads + ")";
            case STAGE -> "SELECT id AS lead_id, stage_name AS key FROM " + db + ".leads_current WHERE account_id = "
                    + ClickHouseSql.str(accountId) + " AND stage_name != '' AND id IN (" + leads + ")";
            // A lead's source touches: its @ tags and its clicks on source links; first = earliest, last = latest.
            case FIRST_SOURCE_TAG, LAST_SOURCE_TAG -> "SELECT lead_id, " + (attribute == Attribute.FIRST_SOURCE_TAG ? "argMin" : "argMax")
                    + "(tag, d) AS key FROM (SELECT lead_id, tag, assigned_at AS d FROM " + db + ".lead_tags_current WHERE account_id = "
                    + ClickHouseSql.str(accountId) + " AND tag LIKE '@%' UNION ALL SELECT lead_id, source_link_tag AS tag, click_date AS d FROM "
                    + db + ".clicks_current WHERE account_id = " + ClickHouseSql.str(accountId)
                    + " AND lead_id != '' AND source_link_tag != '') AS touches WHERE lead_id IN (" + leads + ") GROUP BY lead_id";
        };
        List<AggregationResult.Group> groups = new ArrayList<>();
        long returned = 0;
        for (JsonNode row : clickHouse.select("SELECT key, count() AS c FROM (" + pairs + ") GROUP BY key ORDER BY c DESC, key ASC LIMIT " + groupsLimit)) {
            long c = row.get("c").asLong();
            groups.add(new AggregationResult.Group(row.get("key").asText(), c));
            returned += c;
        }
        JsonNode totals = clickHouse.select("SELECT (SELECT count() FROM (" + pairs + ")) AS grouped, (SELECT count() FROM (" + leads + ")) AS total").get(0);
        return new AggregationResult(groups, totals.get("grouped").asLong() - returned, totals.get("total").asLong());
    }

    /** The ids of the account's current leads matching every filter. */
    static String matchingLeads(String db, String accountId, LeadFilter f) {
        StringBuilder sql = new StringBuilder("SELECT id FROM ").append(db).append(".leads_current WHERE account_id = ")
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
