package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.clickhouse.AdKeywordNames;
import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.models.scientific.PathCredit;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.query.attribution.request.AttributionOptions;
import dev.attribution.query.attribution.request.AttributionRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /attribution} at {@code google_keyword} / {@code google_v2_keyword} (spec 4.5): one row per requested
 * keyword of {@code keywordsIds}, or date buckets over them. A click belongs to a keyword through the {@code kwd-<id>}
 * of the {@code targetid} ValueTrack parameter on its tracked URL and its ad's ad group; every model runs over the
 * keyword channels ({@link ScientificAttribution#credit}). docs/attribution-models.md, "Keyword levels".
 */
@Singleton
public class KeywordAttribution {

    /** Metrics computed from spend: the store has no spend per keyword, so these are null at keyword levels. */
    static final Set<String> SPEND_METRICS = Set.of("cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer",
            "cost_per_lead");

    private final ClickHouseGateway clickHouse;
    private final ScientificAttribution paths;
    private final AdKeywordNames names;

    public KeywordAttribution(ClickHouseGateway clickHouse, ScientificAttribution paths, AdKeywordNames names) {
        this.clickHouse = clickHouse;
        this.paths = paths;
        this.names = names;
    }

    public AttributionRows.Page report(String accountId, ZoneId zone, AttributionRequest r, AttributionOptions o,
                                       List<String> stagesLower, int scientificDays) {
        Map<String, String> texts = names.resolve(accountId, r.level().platform(), r.ids());
        List<String> unknown = r.ids().stream().filter(k -> !texts.containsKey(k)).toList();
        Set<String> known = new LinkedHashSet<>(r.ids().stream().filter(texts::containsKey).toList());
        if (known.isEmpty()) {
            return new AttributionRows.Page(List.of(), unknown, null);
        }
        AttributionQuery.Params p = AttributionQuery.Params.of(r, zone, o.filters(), stagesLower, o.grouping());
        ScientificAttribution.Channels channels = ScientificAttribution.Channels.of(r.level());
        Map<String, PathCredit.Credit> credit = paths.credit(accountId, channels, known, p, scientificDays, r.model());
        Map<String, long[]> traffic = paths.traffic(accountId, channels, known, p);
        boolean fractional = r.model() == AttributionRequest.Model.scientific;
        List<Map<String, Object>> rows = new ArrayList<>();
        if (o.grouping().isPresent()) {
            for (var e : TimeBuckets.covering(o.grouping().get(), p.fromDay(), p.toDay()).entrySet()) {
                String key = e.getKey().toString();
                if (!credit.containsKey(key) && !traffic.containsKey(key)) {
                    continue;
                }
                TimeBuckets.Bucket b = e.getValue();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("id", b.id());
                row.put("start_date", b.start().toString());
                row.put("end_date", b.end().toString());
                row.put("name", b.name());
                for (String f : r.fields()) {
                    if (!f.equals("name")) {
                        row.put(f, value(f, credit.get(key), traffic.get(key), fractional, b.name(), null));
                    }
                }
                rows.add(row);
            }
            return new AttributionRows.Page(rows, unknown, null);
        }
        Map<String, String> groups = groupNames(accountId, r.level().platform(), known);
        for (String key : known) {
            if (!credit.containsKey(key) && !traffic.containsKey(key)) {
                continue;
            }
            int cut = key.indexOf(':');
            String group = key.substring(0, cut);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", key.substring(cut + 1));
            row.put("adgroupId", group);
            for (String f : r.fields()) {
                row.put(f, value(f, credit.get(key), traffic.get(key), fractional, texts.get(key), groups.getOrDefault(group, group)));
            }
            rows.add(row);
        }
        return new AttributionRows.Page(rows, unknown, null);
    }

    /** One metric of a keyword row: no spend metrics; whole counts for the click models, fractions for scientific. */
    static Object value(String field, PathCredit.Credit c, long[] traffic, boolean fractional, String name, String parent) {
        Object v = field.equals("parent_name") ? parent : SPEND_METRICS.contains(field) ? null
                : PathCredit.metric(field, c == null ? new PathCredit.Credit() : c,
                traffic == null ? 0 : traffic[0], traffic == null ? 0 : traffic[1], 0, name);
        if (!fractional && v instanceof Double d) {
            v = Math.round(d);
        }
        return v == null ? NullNode.getInstance() : v;
    }

    private Map<String, String> groupNames(String accountId, String platform, Set<String> keys) {
        List<String> groups = keys.stream().map(k -> k.substring(0, k.indexOf(':'))).distinct().toList();
        Map<String, String> names = new HashMap<>();
        for (JsonNode row : clickHouse.select("SELECT ad_set_id AS grp, name AS grp_name FROM " + clickHouse.database()
                + ".ad_sets_current WHERE account_id = " + ClickHouseSql.str(accountId) + " AND platform = " + ClickHouseSql.str(platform)
                + " AND grp IN " + ClickHouseSql.strList(groups))) {
            if (!row.get("grp_name").asText().isEmpty()) {
                names.put(row.get("grp").asText(), row.get("grp_name").asText());
            }
        }
        return names;
    }
}
