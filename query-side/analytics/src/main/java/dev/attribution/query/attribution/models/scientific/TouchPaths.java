package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.request.AttributionFilters;
import dev.attribution.query.attribution.request.AttributionRequest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.ClicksByAd;
import dev.attribution.query.attribution.clickhouse.ClicksByLead;
import dev.attribution.query.attribution.clickhouse.CurrentClicks;
import dev.attribution.query.attribution.clickhouse.CurrentSales;
import dev.attribution.query.attribution.clickhouse.CurrentSales.Column;
import dev.attribution.query.attribution.clickhouse.ScopeAds;

import java.time.Instant;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The touch paths of the scientific model and of the keyword levels, read from ClickHouse
 * (docs/attribution-models.md, "Scientific"): the chain's transition counts over every path of a window, counted in
 * ClickHouse, and the full converting paths of the sales that can credit the requested entities; plus their traffic.
 * {@link ScientificAttribution} turns them into credit ({@link PathCredit}, {@link MarkovChain}).
 */
public final class TouchPaths {

    private final ClickHouseGateway clickHouse;

    TouchPaths(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    /**
     * The time bounds of the paths (epoch seconds): conversions are the sales dated in [start, salesEnd]; a converting
     * path takes its lead's clicks from {@code back} seconds before its sale (0 = no bound), a non-converting path
     * those in [{@code nonConvertingFrom}, end].
     */
    record Window(long start, long end, long salesEnd, long back, long nonConvertingFrom) {

        static Window of(AttributionQuery.Params p, boolean chain, int scientificDays) {
            long back = chain ? ScientificAttribution.lookBack(scientificDays, p.windowDays()) * 86400L : p.windowDays() * 86400L;
            long nonConvertingBack = p.filters().reportSourceVisibility() ? scientificDays * 86400L : back;
            long start = p.start().getEpochSecond();
            long end = p.end().getEpochSecond();
            // with dayOfAttribution the click models take every later sale whose credited click may be in the range
            long salesEnd = !p.dayOfAttribution() ? end : chain ? end + back : LATEST;
            return new Window(start, end, salesEnd, back, start - nonConvertingBack);
        }

        /** The earliest click a path of this window can hold (0 = no bound). */
        long clicksFrom() {
            return back == 0 ? 0 : Math.min(start - back, nonConvertingFrom);
        }

        /** A raw-version condition on click_date: the clicks a path of this window can hold. */
        String clickDates() {
            return "click_date <= " + at(salesEnd) + (back == 0 ? "" : " AND click_date >= " + at(clicksFrom()));
        }
    }

    /** 2100-01-01: no upper bound on sale dates. */
    private static final long LATEST = 4102444800L;

    private static String at(long epochSecond) {
        return "toDateTime(" + epochSecond + ", 'UTC')";
    }

    /**
     * The chain's transition counts, counted in ClickHouse over every path of the window: each lead's clicks in the
     * window as (time, click id, organic, channel) tuples, one converting path per kept sale of the lead (its clicks in
     * [sale − L, sale]) or, for a lead without one, one non-converting path (its clicks in [start − L, end]);
     * sourceConfiguration's preference applied, sorted by (time, click id), emitted as transitions and counted.
     */
    List<MarkovChain.Transition> transitions(String accountId, ScientificAttribution.Channels channels, AttributionQuery.Params p, Window w) {
        String touch = "(toUInt32(click_date), click_id, is_organic, if(entity = '', " + ClickHouseSql.str(PathCredit.OTHER) + ", entity))";
        String perLead = "SELECT lead_id, groupArray(" + touch + ") AS t FROM (" + clicks(accountId, channels, p, w.clickDates(), true)
                + ") AS c GROUP BY lead_id";
        String kept = "SELECT lead_id, toInt64(toUInt32(sale_at)) AS sale_epoch, toUInt8(1) AS converted FROM "
                + keptSales(clickHouse.database(), accountId, p, w) + " AS ks";
        String bounded = "SELECT t, converted, if(converted = 1, sale_epoch - " + w.back() + ", " + w.nonConvertingFrom() + ") AS lo_at, "
                + "if(converted = 1, sale_epoch, " + w.end() + ") AS hi_at FROM (" + perLead + ") AS pl ALL LEFT JOIN (" + kept
                + ") AS sk USING (lead_id)";
        // 18.16 drops a subquery column that only a lambda reads ("Unknown identifier"): lo_at / hi_at are also read
        // outside the lambda, up to the query that uses wt (lo_at <= hi_at always holds)
        String windowed = "SELECT converted, lo_at, hi_at, arrayFilter(x -> tupleElement(x, 1) >= lo_at AND tupleElement(x, 1) <= hi_at, t) "
                + "AS wt FROM (" + bounded + ") AS b";
        String preferred = switch (p.sources()) {
            case prioritize_paid -> "0";
            case prioritize_organic -> "1";
            default -> null;
        };
        String kind = preferred == null ? "wt" : "if(arrayExists(x -> tupleElement(x, 3) = " + preferred + ", wt), arrayFilter(x -> tupleElement(x, 3) = "
                + preferred + ", wt), wt)";
        String pathSql = "SELECT converted, arrayMap(x -> tupleElement(x, 4), arraySort(" + kind + ")) AS ch FROM (" + windowed
                + ") AS wd WHERE notEmpty(wt) AND lo_at <= hi_at";
        String sql = "SELECT from_state, to_state, converted, count() AS n FROM (" + pathSql + ") AS pa ARRAY JOIN arrayConcat([''], ch) AS from_state, "
                + "arrayConcat(ch, ['']) AS to_state GROUP BY from_state, to_state, converted";
        List<MarkovChain.Transition> out = new ArrayList<>();
        for (JsonNode row : clickHouse.select(sql)) {
            String a = row.get("from_state").asText();
            String b = row.get("to_state").asText();
            out.add(new MarkovChain.Transition(a.isEmpty() ? null : a, b.isEmpty() ? null : b, row.get("converted").asInt() != 0,
                    row.get("n").asLong()));
        }
        return out;
    }

    /**
     * The converting paths of the sales of leads with a click on one of {@code entities} in the window (all of each
     * such lead's kept sales), each with its touches ordered under sourceConfiguration; sales with no touch left out.
     */
    List<PathCredit.Sale> converting(String accountId, ScientificAttribution.Channels channels, Set<String> entities, AttributionQuery.Params p, Window w) {
        return converting(clickHouse.select(convertingSql(accountId, channels, entities, p, w, null)), p, null);
    }

    /**
     * The statement of {@link #converting}: with {@code codes} (not at keyword levels) the buyers' clicks come from
     * {@code clicks_by_lead} with their channel as a code of {@code codes}, else from {@code clicks} with the
     * channel's name.
     */
    String convertingSql(String accountId, ScientificAttribution.Channels channels, Set<String> entities, AttributionQuery.Params p, Window w,
                         ChainTransitions.Codes codes) {
        return convertingSql(accountId, channels, entities, p, w, codes, null);
    }

    /**
     * The kept sales of the leads with a window click on one of {@code entities} (a superset: every raw version of
     * those entities' clicks names a lead), of the leads whose {@code cityHash64(lead_id)} is one of {@code leadKeys}
     * (null: all): account_id, lead_id, lk (that hash), sale_id, sale_at, sale_epoch, is_recurring, is_first_sale, cents.
     */
    String touchingSalesSql(String accountId, ScientificAttribution.Channels channels, Set<String> entities, AttributionQuery.Params p, Window w,
                            Set<String> leadKeys) {
        return touchingSales(accountId, p, w, touching(accountId, channels, entities, w), leadKeys) + ClickHouseSql.UNINDEXED_IN_SUBQUERIES;
    }

    private String touchingSales(String accountId, AttributionQuery.Params p, Window w, String touching, Set<String> leadKeys) {
        return "SELECT account_id, lead_id, toString(cityHash64(lead_id)) AS lk, id AS sale_id, sale_at, toUInt32(sale_at) AS sale_epoch, is_recurring, "
                + "is_first_sale, " + revenue(p) + " AS cents FROM " + keptSales(clickHouse.database(), accountId, p, w, " AND lead_id IN (" + touching
                + ")" + leadKeys(leadKeys)) + " AS ks";
    }

    private static String leadKeys(Set<String> leadKeys) {
        return leadKeys == null ? "" : " AND cityHash64(lead_id) IN (" + String.join(", ", leadKeys) + ")";
    }

    /** The leads of every raw version of the entities' clicks in the window (clicks_by_ad, sorted by ad). */
    private String touching(String accountId, ScientificAttribution.Channels channels, Set<String> entities, Window w) {
        List<String> prefixes = entities.stream().map(e -> channels.keyword() && e.contains(":") ? e.substring(0, e.indexOf(':')) : e).distinct().toList();
        ScopeAds entityAds = ScopeAds.read(clickHouse, accountId, AdScope.of(channels.platform(), channels.column(), prefixes).withAdOnly());
        // a click's current version names its current lead, so the leads of all versions are a superset
        return ClicksByAd.rawLeads(clickHouse.database(), accountId, entityAds, w.clickDates()).sql();
    }

    /** {@link #convertingSql}, only for the leads whose {@code cityHash64(lead_id)} is one of {@code leadKeys} (null: all). */
    String convertingSql(String accountId, ScientificAttribution.Channels channels, Set<String> entities, AttributionQuery.Params p, Window w,
                         ChainTransitions.Codes codes, Set<String> leadKeys) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String touching = touching(accountId, channels, entities, w);
        String sales = touchingSales(accountId, p, w, touching, leadKeys);
        // the leads with a sale in the window among those (raw sales: a superset)
        String buyerLeads = CurrentSales.rawLeads(db, accountId, Instant.ofEpochSecond(w.start()), Instant.ofEpochSecond(w.salesEnd()),
                "lead_id IN (" + touching + ")", condition(leadKeys(leadKeys))).sql();
        String clicks;
        String channel;
        if (codes == null) {
            // every version of the clicks that name one of those leads
            String buyers = CurrentClicks.rawIds(db, accountId, w.clickDates() + " AND lead_id IN (" + buyerLeads + ")").sql();
            clicks = clicks(accountId, channels, p, w.clickDates() + " AND id IN (" + buyers + ")", false);
            channel = "groupArray(entity) AS touch_entity";
        } else {
            // their clicks from clicks_by_lead (a click's date and ad_key never change: part of the group), found by
            // the number lead_key (cityHash64 of the id: a superset; the join with the sales keeps their leads' only)
            clicks = "SELECT account_id, lead_id, click_id, click_date, is_organic, " + codes.sql() + " AS code FROM "
                    + ClicksByLead.newest(db, accountId, "lead_key IN (SELECT cityHash64(lead_id) FROM (" + buyerLeads + ") AS bk)", w.clickDates(),
                    "account_id, lead_id, id AS click_id, click_date, ad_key", "account_id, lead_id, click_date, id, ad_key", "deleted").subquery("dc")
                    + " WHERE deleted = 0"
                    + clickFilter(db, acc, p);
            channel = "groupArray(code) AS touch_code";
        }
        String arrays = "groupArray(toUInt32(click_date)) AS touch_at, groupArray(click_id) AS touch_ids, groupArray(is_organic) AS touch_organic, "
                + channel;
        return "SELECT sale_id, lead_id, sale_epoch, is_recurring, is_first_sale, cents, " + arrays + " FROM (" + sales
                + ") AS s ALL INNER JOIN (" + clicks + ") AS c USING (account_id, lead_id) WHERE click_date <= sale_at"
                + (w.back() > 0 ? " AND click_date >= sale_at - " + w.back() : "")
                + " GROUP BY sale_id, lead_id, sale_epoch, is_recurring, is_first_sale, cents" + ClickHouseSql.UNINDEXED_IN_SUBQUERIES;
    }

    /**
     * The converting paths of {@link #touchingSalesSql}'s rows whose paths {@link ChainTransitions#sql} returned (by
     * lead_key and sale time): the sales of the tied leads are left out (their paths were not returned), and so are
     * sales whose path is empty.
     */
    List<PathCredit.Sale> converting(List<JsonNode> sales, ChainTransitions.Counted counted, AttributionQuery.Params p, ChainTransitions.Codes codes) {
        List<PathCredit.Sale> converting = new ArrayList<>();
        for (JsonNode row : sales) {
            String lk = row.get("lk").asText();
            long[] numbers = counted.tied().contains(lk) ? null : counted.paths().get(lk + ":" + row.get("sale_epoch").asLong());
            if (numbers == null) {
                continue;
            }
            List<PathCredit.Touch> touches = new ArrayList<>();
            for (long n : numbers) {
                touches.add(ChainTransitions.touch(n, codes));
            }
            touches = PathCredit.order(touches, p.sources());
            if (!touches.isEmpty()) {
                converting.add(new PathCredit.Sale(row.get("sale_id").asText(), row.get("lead_id").asText(), row.get("is_recurring").asInt() != 0,
                        row.get("is_first_sale").asInt() != 0, row.get("cents").asLong(), touches, row.get("sale_epoch").asLong()));
            }
        }
        return converting;
    }

    /** The converting paths of {@link #convertingSql}'s rows ({@code codes} as given to it). */
    List<PathCredit.Sale> converting(List<JsonNode> rows, AttributionQuery.Params p, ChainTransitions.Codes codes) {
        List<PathCredit.Sale> converting = new ArrayList<>();
        for (JsonNode row : rows) {
            List<PathCredit.Touch> touches = path(row, p.sources(), codes);
            if (!touches.isEmpty()) {
                converting.add(new PathCredit.Sale(row.get("sale_id").asText(), row.get("lead_id").asText(), row.get("is_recurring").asInt() != 0,
                        row.get("is_first_sale").asInt() != 0, row.get("cents").asLong(), touches, row.get("sale_epoch").asLong()));
            }
        }
        return converting;
    }

    /** The amount a sale shares out, in cents: price (in USD with currency=usd), less the hard costs with excludeHardCosts. */
    private static String revenue(AttributionQuery.Params p) {
        String rate = p.usd() ? "if(sale_price = 0, 1., ifNull(toFloat64(sale_usd_price), toFloat64(sale_price)) / toFloat64(sale_price))" : "1.";
        String amount = "toInt64(round(toFloat64(" + (p.usd() ? "ifNull(sale_usd_price, sale_price)" : "sale_price") + ") * 100))";
        return p.filters().excludeHardCosts() ? amount + " - " + AttributionQuery.cents("sale_taxes", rate) + " - "
                + AttributionQuery.cents("sale_shipping", rate) + " - " + AttributionQuery.cents("sale_cost_of_goods", rate) : amount;
    }

    /**
     * The conversions of the window: the rows of {@code sales_current} (040_sales.sql, same dedup rule) dated in
     * [start, salesEnd] that the sale filters keep. A sale's date never changes, so the raw versions are filtered by
     * it before the dedup.
     */
    static String keptSales(String db, String accountId, AttributionQuery.Params p, Window w) {
        return keptSales(db, accountId, p, w, "");
    }

    /**
     * {@link #keptSales(String, String, AttributionQuery.Params, Window)} of the leads {@code leadsWhere} (a condition
     * on the raw rows' lead_id, or ''): the dedup groups by (lead, id), so the leads are chosen before it.
     */
    static String keptSales(String db, String accountId, AttributionQuery.Params p, Window w, String leadsWhere) {
        return keptSales(db, accountId, p, w, leadsWhere, true);
    }

    /**
     * {@link #keptSales(String, String, AttributionQuery.Params, Window, String)}, without the amount columns
     * (sale_price … sale_cost_of_goods) unless {@code amounts}: 18.16 computes a subquery's unused aggregates.
     */
    static String keptSales(String db, String accountId, AttributionQuery.Params p, Window w, String leadsWhere, boolean amounts) {
        return keptSales(db, accountId, p, w, leadsWhere, CurrentSales.KEY, CurrentSales.KEY, amounts ? CurrentSales.AMOUNTS : Set.of());
    }

    /**
     * The kept sales' leads and dates only, grouped by numbers instead of strings (cityHash64 of the sale id within
     * the lead's two hashes; ~2.5× less CPU than the String group on the bench): lead_key, lead_check, sale_at. Two
     * sales of one lead would be one only if their ids shared a 64-bit hash (~1e-19 per pair).
     */
    static String keptSaleKeys(String db, String accountId, AttributionQuery.Params p, Window w, String leadsWhere) {
        return keptSales(db, accountId, p, w, leadsWhere, "cityHash64(lead_id) AS lead_key, farmHash64(lead_id) AS lead_check, cityHash64(id) AS sale_key",
                "lead_key, lead_check, sale_key", Set.of());
    }

    /** The kept sales ({@link CurrentSales}): {@code keys} selected and grouped by {@code groupBy}, with {@code amounts}. */
    private static String keptSales(String db, String accountId, AttributionQuery.Params p, Window w, String leadsWhere, String keys, String groupBy,
                                    Set<Column> amounts) {
        String acc = ClickHouseSql.str(accountId);
        AttributionFilters f = p.filters();
        return CurrentSales.dated(db, accountId, Instant.ofEpochSecond(w.start()), Instant.ofEpochSecond(w.salesEnd())).keys(keys, groupBy)
                .columns(amounts).columns(Column.RECURRING, Column.FIRST_SALE, Column.SALE_DATE)
                .rawWhere(condition(stageLeads(db, acc, p)), condition(leadsWhere))
                .currentWhere(f.ignoreRecurringSales() ? "is_recurring = 0" : "", switch (f.newCustomers()) {
                    case only_unique_customers -> "is_first_sale = 1";
                    case only_returning_customers -> "is_first_sale = 0";
                    case all_customers -> "";
                }).select().parenthesized();
    }

    /** A condition of a {@code " AND …"} fragment (or ''), for the builder's condition lists. */
    static String condition(String andFragment) {
        return andFragment.startsWith(" AND ") ? andFragment.substring(5) : andFragment;
    }

    /** Leads and clicks per row key: {@link ScientificAttribution#traffic}. */
    Map<String, long[]> traffic(String accountId, ScientificAttribution.Channels channels, Set<String> entities, AttributionQuery.Params p) {
        if (entities.isEmpty()) {
            return Map.of();
        }
        String key = p.grouping().map(u -> "toString(" + TimeBuckets.sqlOfDateTime(u, "click_date", p.zone()) + ")").orElse("entity");
        Map<String, long[]> out = new HashMap<>();
        for (JsonNode row : clickHouse.select("SELECT " + key + " AS row_key, uniqExact(lead_id) AS n_leads, count() AS n_clicks FROM ("
                + clicks(accountId, channels, p, "click_date >= " + ClickHouseSql.dateTime(p.start()) + " AND click_date <= "
                + ClickHouseSql.dateTime(p.end()), true) + ") AS c WHERE entity IN " + ClickHouseSql.strList(List.copyOf(entities)) + " GROUP BY row_key")) {
            out.put(row.get("row_key").asText(), new long[]{row.get("n_leads").asLong(), row.get("n_clicks").asLong()});
        }
        return out;
    }

    /**
     * The account's clicks with a lead under {@code p}'s click filters, each with its channel ({@code entity}, '' = none),
     * among the clicks whose raw versions match {@code rawWhere} (see {@link #datedClicks}, {@code merge} there).
     */
    private String clicks(String accountId, ScientificAttribution.Channels channels, AttributionQuery.Params p, String rawWhere, boolean merge) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        Set<CurrentClicks.Column> extra = EnumSet.noneOf(CurrentClicks.Column.class);
        if (channels.keyword()) {
            extra.add(CurrentClicks.Column.TRACKED_URL);
        }
        if (p.filters().reportSourceVisibility()) {
            extra.add(CurrentClicks.Column.SOURCE_LINK_TAG);
        }
        String clickFilter = clickFilter(db, acc, p);
        return "SELECT account_id, lead_id, click_id, click_date, is_organic, " + channels.sql() + " AS entity FROM (SELECT account_id, lead_id, "
                + "id AS click_id, click_date, is_organic, integration_type AS attributed_platform, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) "
                + "AS attributed_ad" + (channels.keyword() ? ", extract(extractURLParameter(tracked_url, 'targetid'), 'kwd-([0-9]+)') AS kwd" : "")
                + " FROM " + datedClicks(db, accountId, rawWhere, extra, merge) + " AS cd WHERE lead_id != ''" + clickFilter
                + ") AS k ANY LEFT JOIN (SELECT ad_id AS attributed_ad, platform AS attributed_platform, " + channels.column().name()
                + " AS ad_entity FROM " + db + ".ads_current WHERE account_id = " + acc
                + (channels.platform() == null ? "" : " AND platform = " + ClickHouseSql.str(channels.platform()))
                + " AND ad_id != '') AS e USING (attributed_ad, attributed_platform)";
    }

    /**
     * The rows of {@code clicks_current} (030_clicks.sql, same dedup rule) among the clicks whose raw versions match
     * {@code rawWhere}, which must select every version of a click it selects one of: a condition on click date,
     * platform or ad ids (written once by POST /clicks, never updated) or on the id. {@code extra}: columns besides
     * those every path needs.
     * <p>
     * With {@code merge} the versions are deduplicated with FINAL, which keeps each click's version of the highest
     * {@code _version} as the view's argMax does: FINAL merges within a partition, and every version of a click is in
     * the partition of its click date, which never changes; the deleted filter is applied after the merge (outside the
     * subquery). A sorted merge costs less than hashing every click id when {@code rawWhere} keeps most of the rows it
     * reads (a whole window); a selective {@code rawWhere} is filtered first and grouped by id (docs/BENCHMARKS.md).
     */
    private static String datedClicks(String db, String accountId, String rawWhere, Set<CurrentClicks.Column> extra, boolean merge) {
        Set<CurrentClicks.Column> columns = EnumSet.copyOf(CurrentClicks.PATH);
        columns.addAll(extra);
        return (merge ? CurrentClicks.merged(db, accountId, rawWhere, columns) : CurrentClicks.matching(db, accountId, rawWhere, columns)).parenthesized();
    }

    /** The click filters of {@code p} over a deduplicated click's columns: sourceConfiguration only_*, reportSourceVisibility, lead_stage. */
    private static String clickFilter(String db, String acc, AttributionQuery.Params p) {
        return switch (p.sources()) {
            case only_paid -> " AND is_organic = 0";
            case only_organic -> " AND is_organic = 1";
            default -> "";
        } + (p.filters().reportSourceVisibility() ? " AND source_link_tag NOT IN (SELECT tag FROM " + db
                + ".source_links_current WHERE account_id = " + acc + " AND deleted_at IS NOT NULL)" : "") + stageLeads(db, acc, p);
    }

    private static String stageLeads(String db, String acc, AttributionQuery.Params p) {
        return p.leadStagesLower().isEmpty() ? "" : " AND lead_id IN (SELECT id FROM " + db + ".leads_current WHERE account_id = " + acc
                + " AND lower(stage_name) IN " + ClickHouseSql.strList(p.leadStagesLower()) + ")";
    }

    /** A path from one row of grouped arrays (channel names, or codes of {@code codes}): sourceConfiguration prioritize_* applied, ordered by (time, click id). */
    private static List<PathCredit.Touch> path(JsonNode row, AttributionRequest.SourceConfiguration sources, ChainTransitions.Codes codes) {
        List<PathCredit.Touch> touches = new ArrayList<>();
        JsonNode at = row.get("touch_at");
        for (int i = 0; i < at.size(); i++) {
            String entity = codes == null ? row.get("touch_entity").get(i).asText() : codes.names().get(row.get("touch_code").get(i).asInt());
            touches.add(new PathCredit.Touch(at.get(i).asLong(), row.get("touch_ids").get(i).asText(), row.get("touch_organic").get(i).asInt() != 0,
                    entity.isEmpty() ? PathCredit.OTHER : entity));
        }
        return PathCredit.order(touches, sources);
    }
}
