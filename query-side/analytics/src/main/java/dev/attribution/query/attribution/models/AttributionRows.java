package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.clickhouse.ScopeAds;
import dev.attribution.query.attribution.metrics.MetricCatalog;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.query.attribution.request.AttributionOptions;
import dev.attribution.query.attribution.request.AttributionRequest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The rows of {@code GET /attribution} with its options (spec 4.5): one row per requested source, or per date
 * bucket over all of them; with {@code isAdAccountId} the sources are a page of the ad account's sources.
 */
@Singleton
public class AttributionRows {

    /** Rows, the ids that do not exist at the level, and the next page (isAdAccountId only). */
    public record Page(List<Map<String, Object>> rows, List<String> unknownIds, String nextPageId) {
    }

    private final ClickHouseGateway clickHouse;
    private final AttributionQuery query;
    private final PageTokens pageTokens;

    public AttributionRows(ClickHouseGateway clickHouse, AttributionQuery query, PageTokens pageTokens) {
        this.clickHouse = clickHouse;
        this.query = query;
        this.pageTokens = pageTokens;
    }

    public Page report(String accountId, ZoneId zone, AttributionRequest r, AttributionOptions o, List<String> stagesLower) {
        return report(accountId, zone, r, o, stagesLower, false);
    }

    /**
     * The report; with {@code allRows} every known requested source (or every bucket of the range) has a row, zeros
     * included, so another model can lay its own credit over them ({@link ScientificAttribution}).
     */
    public Page report(String accountId, ZoneId zone, AttributionRequest r, AttributionOptions o, List<String> stagesLower, boolean allRows) {
        AttributionRequest.Level level = r.level();
        List<String> ids = r.ids().stream().distinct().toList();
        List<String> unknown = new ArrayList<>();
        String next = null;
        if (o.adAccountId().isPresent()) {
            SourcePage page = sources(accountId, r, o);
            if (page.ids().isEmpty() && o.pageId().isEmpty()) {
                return new Page(List.of(), List.of(o.adAccountId().get()), null);
            }
            ids = page.ids();
            next = page.next();
            if (ids.isEmpty()) {
                return new Page(List.of(), List.of(), null);
            }
        }
        AttributionQuery.Params p = AttributionQuery.Params.of(r, zone, o.filters(), stagesLower, o.grouping());
        // sent beside the labels: the scope's ads (read unless they are the ads named by id, known from the labels), the
        // custom costs and the calls check (AttributionQuery.start). Over every requested id: an id the labels do not
        // know is carried by no ad, so they are the known ids' ads and costs.
        AdScope requested = AdScope.of(level.platform(), level.column(), ids);
        Supplier<ScopeAds> scopeAdsLater = ScopeAds.known(requested).isPresent() ? null : ScopeAds.readLater(clickHouse, accountId, requested);
        AttributionQuery.Started started = query.start(accountId, requested, p);
        Map<String, String[]> labels = labels(accountId, level, ids);
        List<String> known = new ArrayList<>();
        for (String id : ids) {
            if (labels.containsKey(id)) {
                known.add(id);
            } else {
                unknown.add(id);
            }
        }
        if (known.isEmpty()) {
            return new Page(List.of(), unknown, next);
        }
        AdScope scope = AdScope.of(level.platform(), level.column(), known);
        ScopeAds scopeAds = scopeAdsLater == null ? ScopeAds.known(scope).orElseThrow() : scopeAdsLater.get();
        // every row is kept (allRows) and only traffic and cost are asked for (the scientific base): no sales or calls read
        boolean conversions = !allRows || !ScientificAttribution.BASE.containsAll(r.fields());
        Map<String, MetricCatalog.Totals> totals = query.totals(accountId, scope, scopeAds, started, p, conversions);
        List<Map<String, Object>> rows = new ArrayList<>();
        if (o.grouping().isPresent()) {
            rows.addAll(bucketRows(o.grouping().get(), p.fromDay(), p.toDay(), totals, r.fields(), allRows));
            return new Page(rows, unknown, next);
        }
        boolean everySource = allRows || o.adAccountId().isPresent();
        for (String id : known) {
            MetricCatalog.Totals t = totals.get(id);
            if (t == null && !everySource && o.status().isEmpty()) {
                continue;
            }
            t = t == null ? new MetricCatalog.Totals() : t;
            if (o.status().isPresent() && (t.adSpend > 0) != o.status().get().equals("active")) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            for (String f : r.fields()) {
                row.put(f, MetricCatalog.cell(f, t, labels.get(id)[0], labels.get(id)[1]));
            }
            rows.add(row);
        }
        return new Page(rows, unknown, next);
    }

    /**
     * Rows of the buckets that have data (every bucket with {@code allRows}), oldest first: id, start_date, end_date,
     * name, then the fields.
     */
    static List<Map<String, Object>> bucketRows(TimeBuckets.Unit unit, LocalDate from, LocalDate to,
                                                Map<String, MetricCatalog.Totals> totals, List<String> fields, boolean allRows) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (var e : TimeBuckets.covering(unit, from, to).entrySet()) {
            MetricCatalog.Totals t = totals.get(e.getKey().toString());
            if (t == null && !allRows) {
                continue;
            }
            t = t == null ? new MetricCatalog.Totals() : t;
            TimeBuckets.Bucket b = e.getValue();
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", b.id());
            row.put("start_date", b.start().toString());
            row.put("end_date", b.end().toString());
            row.put("name", b.name());
            for (String f : fields) {
                if (!f.equals("name")) {
                    row.put(f, MetricCatalog.cell(f, t, b.name(), null));
                }
            }
            rows.add(row);
        }
        return rows;
    }

    /**
     * Name and parent name of each id that exists at the level (an id carried by an ad of the account), in one
     * statement: the ids' parents from {@code ads_current}, joined with their own names and their parents' names.
     */
    private Map<String, String[]> labels(String accountId, AttributionRequest.Level level, List<String> ids) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String platform = ClickHouseSql.str(level.platform());
        String in = ClickHouseSql.strList(ids);
        String column = level.column().name();
        String parentTable = switch (column) {
            case "ad_id" -> "ad_sets_current";
            case "ad_set_id" -> "ad_campaigns_current";
            default -> "ad_accounts_current";
        };
        String parentColumn = switch (column) {
            case "ad_id" -> "ad_set_id";
            case "ad_set_id" -> "campaign_id";
            default -> "ad_account_id";
        };
        String ownTable = switch (column) {
            case "ad_id" -> "ads_current";
            case "ad_set_id" -> "ad_sets_current";
            default -> "ad_campaigns_current";
        };
        String ofIds = " WHERE account_id = " + acc + " AND platform = " + platform + " AND " + column + " IN " + in;
        String parents = "SELECT " + column + " AS entity, any(" + parentColumn + ") AS parent FROM " + db + ".ads_current" + ofIds
                + " GROUP BY entity";
        String ownNames = "SELECT " + column + " AS entity, name AS entity_name FROM " + db + "." + ownTable + ofIds + " AND name != ''";
        String parentNames = "SELECT " + parentColumn + " AS parent, name AS parent_name FROM " + db + "." + parentTable + " WHERE account_id = "
                + acc + " AND platform = " + platform + " AND name != '' AND " + parentColumn + " IN (SELECT " + parentColumn + " FROM " + db
                + ".ads_current" + ofIds + ")";
        Map<String, String[]> labels = new HashMap<>();
        for (JsonNode row : clickHouse.select("SELECT entity, parent, entity_name, parent_name FROM (SELECT entity, parent, entity_name FROM ("
                + parents + ") AS p ANY LEFT JOIN (" + ownNames + ") AS o USING (entity)) AS po ANY LEFT JOIN (" + parentNames
                + ") AS pn USING (parent)")) {
            String id = row.get("entity").asText();
            String name = row.get("entity_name").asText();
            String parent = row.get("parent").asText();
            String parentName = row.get("parent_name").asText();
            labels.put(id, new String[]{name.isEmpty() ? id : name, parent.isEmpty() ? null : parentName.isEmpty() ? parent : parentName});
        }
        return labels;
    }

    record SourcePage(List<String> ids, String next) {
    }

    /** A page of the ad account's sources at the level, by first ad creation (then id), oldest or newest first. */
    private SourcePage sources(String accountId, AttributionRequest r, AttributionOptions o) {
        String adAccount = o.adAccountId().orElseThrow();
        String fingerprint = "attribution-ad-account|" + r.level().name() + "|" + adAccount + "|" + o.newestFirst() + "|" + r.pageSize();
        Optional<JsonNode> after = o.pageId().map(t -> pageTokens.open(t, accountId, fingerprint, PageTokens.INVALID));
        String cmp = o.newestFirst() ? "<" : ">";
        String keyset = after.map(c -> " HAVING first_seen " + cmp + " toDateTime(" + c.get("t").asLong() + ", 'UTC') OR (first_seen = toDateTime("
                + c.get("t").asLong() + ", 'UTC') AND entity " + cmp + " " + ClickHouseSql.str(c.get("k").asText()) + ")").orElse("");
        String dir = o.newestFirst() ? " DESC" : "";
        String column = r.level().column().name();
        String sql = "SELECT " + column + " AS entity, min(created_at) AS first_seen, toUInt32(first_seen) AS first_epoch FROM "
                + clickHouse.database() + ".ads_current WHERE account_id = " + ClickHouseSql.str(accountId) + " AND platform = "
                + ClickHouseSql.str(r.level().platform()) + " AND ad_account_id = " + ClickHouseSql.str(adAccount) + " AND " + column
                + " != '' GROUP BY entity" + keyset + " ORDER BY first_seen" + dir + ", entity" + dir + " LIMIT " + (r.pageSize() + 1);
        List<String> ids = new ArrayList<>();
        long lastT = 0;
        String next = null;
        for (JsonNode row : clickHouse.select(sql)) {
            if (ids.size() == r.pageSize()) {
                ObjectNode c = JsonBody.mapper().createObjectNode().put("t", lastT).put("k", ids.get(ids.size() - 1));
                next = pageTokens.issue(accountId, fingerprint, c);
                break;
            }
            ids.add(row.get("entity").asText());
            lastT = row.get("first_epoch").asLong();
        }
        if (after.isPresent() && ids.isEmpty()) {
            return new SourcePage(ids, null);
        }
        return new SourcePage(ids, next);
    }
}
