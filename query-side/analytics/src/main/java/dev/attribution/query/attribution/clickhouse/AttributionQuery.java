package dev.attribution.query.attribution.clickhouse;

import dev.attribution.query.attribution.metrics.MetricCatalog;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.models.scientific.ConversionTouches;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.query.attribution.request.AttributionFilters;
import dev.attribution.query.attribution.request.AttributionRequest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.ClicksByAd;
import dev.attribution.query.attribution.clickhouse.CurrentClicks;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Type;
import dev.attribution.query.attribution.clickhouse.CurrentSales;
import dev.attribution.query.attribution.clickhouse.CurrentSales.Column;
import dev.attribution.query.attribution.clickhouse.ScopeAds;
import dev.attribution.query.attribution.clickhouse.SpendDays;
import dev.attribution.query.attribution.clickhouse.Sql;
import jakarta.inject.Singleton;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The ClickHouse side of the attribution reports (spec 4.5): credits every sale and call to one click of its lead
 * (docs/attribution-models.md) and sums, per row key, the metrics of {@link MetricCatalog.Totals}. A row key is the
 * entity (source, ad account) or, with a date grouping, the uncut start date of a bucket over all the scope's
 * entities. SQL runs on ClickHouse 18.16 and current releases (no CTEs, no window functions, aliased subqueries).
 */
@Singleton
public class AttributionQuery {

    /** The attribution parameters the sums depend on, and the sums the requested metrics read. */
    public record Params(boolean firstClick, ZoneId zone, java.time.Instant start, java.time.Instant end, boolean usd,
                         boolean dayOfAttribution, AttributionRequest.SourceConfiguration sources, int windowDays,
                         AttributionFilters filters, List<String> leadStagesLower, Optional<TimeBuckets.Unit> grouping,
                         Set<MetricCatalog.Sum> sums) {

        public static Params of(AttributionRequest r, ZoneId zone, AttributionFilters filters, List<String> stages,
                                Optional<TimeBuckets.Unit> grouping) {
            return new Params(r.model() == AttributionRequest.Model.first_click, zone, r.span().start(), r.span().end(),
                    r.usd(), r.dayOfAttribution(), r.sources(), r.windowDays(), filters, stages, grouping, MetricCatalog.reads(r.fields()));
        }

    public     LocalDate fromDay() {
            return LocalDate.ofInstant(start, zone);
        }

    public     LocalDate toDay() {
            return LocalDate.ofInstant(end, zone);
        }
    }

    private final ClickHouseGateway clickHouse;
    private final CustomCostAllocation customCosts;

    public AttributionQuery(ClickHouseGateway clickHouse, CustomCostAllocation customCosts) {
        this.clickHouse = clickHouse;
        this.customCosts = customCosts;
    }

    /** Totals by row key (entity, or bucket start {@code YYYY-MM-DD} with a grouping). */
    public Map<String, MetricCatalog.Totals> totals(String accountId, AdScope scope, Params p) {
        return totals(accountId, scope, p, true);
    }

    /**
     * {@link #totals(String, AdScope, Params)}; without {@code conversions} only the traffic and cost sums (leads,
     * clicks, ad spend, custom costs): the sales and calls are not read, and a row key that only they would have
     * made is missing (callers that lay another model's credit over every row, {@link ScientificAttribution}).
     */
    public Map<String, MetricCatalog.Totals> totals(String accountId, AdScope scope, Params p, boolean conversions) {
        Started started = start(accountId, scope, p);
        return totals(accountId, scope, ScopeAds.read(clickHouse, accountId, scope), started, p, conversions);
    }

    /**
     * The small reads a report sends before its sums, beside its labels: the custom costs of the scope by row key
     * ({@link CustomCostAllocation#byRowLater}) and whether any raw call version is dated in the range (none: the
     * calls' statement is not sent — no raw version in the range, no current call in it, since a call's current date
     * is one of its versions' dates; the statement costs ClickHouse 18.16 ~20 ms of analysis even with no call).
     */
    public record Started(java.util.function.Supplier<Map<String, Long>> customCosts, java.util.function.Supplier<Boolean> anyCalls) {
    }

    /** Sends the reads of {@link Started}. */
    public Started start(String accountId, AdScope scope, Params p) {
        String db = clickHouse.database();
        java.util.function.Supplier<List<JsonNode>> calls = clickHouse.selectLater("SELECT count() AS n FROM " + db + ".calls WHERE "
                + Sql.eq("account_id", accountId) + " AND call_date >= " + Sql.dateTime(p.start())
                + (p.dayOfAttribution() ? "" : " AND call_date <= " + Sql.dateTime(p.end())));
        return new Started(customCosts.byRowLater(accountId, scope, p.fromDay(), p.toDay(), p.grouping()),
                () -> calls.get().get(0).get("n").asLong() > 0);
    }

    /**
     * {@link #totals(String, AdScope, Params, boolean)} with the scope's ads already read ({@link ScopeAds}) and the
     * small reads of {@link #start} already sent: a report starts its first reads together.
     */
    public Map<String, MetricCatalog.Totals> totals(String accountId, AdScope scope, ScopeAds scopeAds, Started started, Params p,
                                                    boolean conversions) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String start = ClickHouseSql.dateTime(p.start());
        String end = ClickHouseSql.dateTime(p.end());
        String entities = "SELECT ad_id AS attributed_ad, platform AS attributed_platform, " + scope.entity() + " AS entity FROM "
                + db + ".ads_current WHERE account_id = " + acc + " AND " + scope.where();
        // each row's entity: named in the statement from the scope's ads (no join), or by joining ads_current when they
        // are too many to inline; rows of other ads (a joined click of the clicks path) are dropped either way
        Optional<String> entityOfAd = scopeAds.entity("attributed_ad", "attributed_platform");
        String byEntity = entityOfAd.map(e -> " WHERE " + scopeAds.condition("attributed_ad", "attributed_platform"))
                .orElse(" ALL INNER JOIN (" + entities + ") AS e USING (attributed_ad, attributed_platform)");
        String entity = entityOfAd.orElse("entity");
        Function<String, String> stageOf = lead -> p.leadStagesLower().isEmpty() ? "" : lead + " IN (SELECT id FROM " + db
                + ".leads_current WHERE account_id = " + acc + " AND lower(stage_name) IN " + ClickHouseSql.strList(p.leadStagesLower()) + ")";
        String stageCondition = stageOf.apply("lead_id");
        String stageLeads = stageCondition.isEmpty() ? "" : " AND " + stageCondition;
        String clickFilter = switch (p.sources()) {
            case only_paid -> " AND is_organic = 0";
            case only_organic -> " AND is_organic = 1";
            default -> "";
        } + (p.filters().reportSourceVisibility() ? " AND source_link_tag NOT IN (SELECT tag FROM " + db
                + ".source_links_current WHERE account_id = " + acc + " AND deleted_at IS NOT NULL)" : "");
        Map<String, MetricCatalog.Totals> out = new HashMap<>();
        Function<JsonNode, MetricCatalog.Totals> row = j -> out.computeIfAbsent(j.get("row_key").asText(), k -> new MetricCatalog.Totals());

        // Sales
        AttributionFilters f = p.filters();
        String rate = p.usd() ? "if(sale_price = 0, 1., ifNull(toFloat64(sale_usd_price), toFloat64(sale_price)) / toFloat64(sale_price))" : "1.";
        String amount = p.usd() ? "ifNull(sale_usd_price, sale_price)" : "sale_price";
        boolean byAd = derivable(p);
        // with dayOfAttribution a sale counts when its click is in the range: it is not older than that click
        Instant salesEnd = p.dayOfAttribution() ? Sql.LATEST : p.end();
        // only the sums the requested metrics read (the sales count always: it makes a row), and only the sale columns
        // they and the filters read: ClickHouse 18.16 computes every argMax of a subquery, read or not
        List<SaleSum> saleSums = SaleSum.of(p.sums());
        Set<Column> columns = EnumSet.of(Column.SALE_DATE);
        saleSums.forEach(sum -> columns.addAll(sum.columns));
        if (f.ignoreRecurringSales()) {
            columns.add(Column.RECURRING);
        }
        if (f.newCustomers() != AttributionFilters.NewCustomers.all_customers) {
            columns.add(Column.FIRST_SALE);
        }
        if (columns.contains(Column.PRICE) && f.excludeHardCosts()) {
            columns.addAll(EnumSet.of(Column.TAXES, Column.SHIPPING, Column.COST_OF_GOODS));
        }
        if (p.usd() && columns.stream().anyMatch(MONEY::containsKey)) {
            columns.addAll(EnumSet.of(Column.PRICE, Column.USD_PRICE));
        }
        // each sale's flags and money in cents (a money column's cents, and rev with the price), and the filters on its
        // flags and its lead
        List<String> flags = FLAGS.stream().filter(columns::contains).map(c -> c.current).toList();
        Map<String, String> moneyOf = new java.util.LinkedHashMap<>();
        MONEY.forEach((c, alias) -> {
            if (columns.contains(c)) {
                moneyOf.put(alias, c == Column.PRICE ? "toInt64(round(toFloat64(" + amount + ") * 100))" : cents(c.current, rate));
            }
        });
        if (columns.contains(Column.PRICE)) {
            moneyOf.put("rev", f.excludeHardCosts() ? "cents - c_tax - c_ship - c_cogs" : "cents");
        }
        List<String> money = moneyOf.entrySet().stream().map(e -> e.getValue() + " AS " + e.getKey()).toList();
        String lead = byAd ? "credit_lead_id" : "lead_id";
        String[] kept = {f.ignoreRecurringSales() ? "is_recurring = 0" : "", switch (f.newCustomers()) {
            case only_unique_customers -> "is_first_sale = 1";
            case only_returning_customers -> "is_first_sale = 0";
            case all_customers -> "";
        }, stageOf.apply(lead)};
        // the click models whose credit derives from the picks read the scope's rows of sale_credits (sale and credit in
        // one row, money and filters computed in the same SELECT: ClickHouse 18.16 analyses a statement again for each
        // subquery layer, ~10 ms a layer); the others join the range's current sales with the credited clicks (attributed)
        String salesRows = byAd
                ? SaleCredits.credited(db, accountId, p.start(), salesEnd, ConversionTouches.credit(p.sources(), p.firstClick(), p.windowDays(),
                        SaleCredits.SALE_DATE), scopeAds, columns).columns("sale_at AS conv_at").columns(money).having(kept).subquery("a")
                : "(" + attributed(db, accountId, Select.of("account_id", "lead_id", "id AS conv_id", "sale_at AS conv_at").columns(flags).columns(money)
                        .from(CurrentSales.dated(db, accountId, p.start(), salesEnd).columns(columns).subquery("sd")).where("account_id = " + acc).where(kept).sql(),
                String.join(", ", java.util.stream.Stream.concat(flags.stream(), moneyOf.keySet().stream()).toList()),
                Type.SALE, clickFilter, scopeAds, p) + ") AS a";
        String salesSql = "SELECT " + rowKey(p, entity) + " AS row_key, "
                + String.join(", ", saleSums.stream().map(sum -> sum.aggregate.replace("LEAD", lead) + " AS " + sum.alias).toList())
                + " FROM " + salesRows + byEntity
                + (p.dayOfAttribution() ? (entityOfAd.isPresent() ? " AND " : " WHERE ") + "attributed_at >= " + start + " AND attributed_at <= " + end : "")
                + " GROUP BY row_key" + ClickHouseSql.UNINDEXED_IN_SUBQUERIES;

        // Calls: credited like sales, by call date (by click date with dayOfAttribution)
        String calls = "SELECT account_id, lead_id, id AS conv_id, call_at AS conv_at, is_qualified, call_state FROM " + db
                + ".calls_current WHERE account_id = " + acc
                + " AND call_at >= " + start + (p.dayOfAttribution() ? "" : " AND call_at <= " + end) + stageLeads;
        String callsSql = "SELECT " + rowKey(p, entity) + " AS row_key, count() AS n_calls, uniqExact(lead_id) AS n_unique, "
                + "countIf(is_qualified = 1) AS n_qualified, countIf(is_qualified = 0) AS n_unqualified, "
                + "countIf(upper(call_state) = 'CANCELLED') AS n_canceled, countIf(upper(call_state) = 'NO_SHOW') AS n_no_show FROM ("
                + attributed(db, accountId, calls, "is_qualified, call_state", Type.CALL, clickFilter, scopeAds, p) + ") AS a" + byEntity
                + (p.dayOfAttribution() ? (entityOfAd.isPresent() ? " AND " : " WHERE ") + "attributed_at >= " + start + " AND attributed_at <= " + end : "")
                + " GROUP BY row_key" + ClickHouseSql.UNINDEXED_IN_SUBQUERIES;

        // Leads and clicks: clicks on the entity in the range. Counted over every version of the scope's clicks unless a
        // filter reads what a click's later versions change or the entities are joined (ClicksByAd.assignedCounts), and
        // counted again per click where a click's lead changed
        String clickKey = p.grouping().map(u -> "toString(" + TimeBuckets.sqlOfDateTime(u, "click_date", p.zone()) + ")").orElse(entity);
        String currentLeadsSql = "SELECT " + clickKey + " AS row_key, " + ClicksByAd.CURRENT_COUNTS + " FROM (SELECT lead_id, click_date, "
                + "attributed_platform, attributed_ad FROM " + ClicksByAd.current(db, accountId, scopeAds, p.start(), p.end(), p.filters().reportSourceVisibility(),
                        p.sources() == AttributionRequest.SourceConfiguration.only_paid || p.sources() == AttributionRequest.SourceConfiguration.only_organic).subquery("cd")
                + " WHERE lead_id != ''"
                + clickFilter + stageLeads + ") AS c" + byEntity + " GROUP BY row_key";
        boolean byVersions = clickFilter.isEmpty() && entityOfAd.isPresent();
        String leadsSql = byVersions ? ClicksByAd.assignedCounts(db, accountId, scopeAds, p.start(), p.end(),
                p.grouping().map(u -> clickKey).orElseGet(() -> scopeAds.entity("ad", "platform").orElseThrow()), stageCondition).sql()
                : currentLeadsSql;

        // Ad spend of the days startDate..endDate in the account zone
        String dayKey = p.grouping().map(u -> "toString(" + TimeBuckets.sqlOfDate(u, "day") + ")").orElse(scope.entity());
        String costSql = "SELECT " + dayKey + " AS row_key, sum(toInt64(round(toFloat64(spend) * 100))) AS c_cost FROM "
                + SpendDays.between(db, accountId, p.fromDay(), p.toDay(), scope).subquery("sp") + " WHERE " + scope.where()
                + " GROUP BY row_key";
        // the four sums read different tables: run at once
        boolean withCalls = conversions && started.anyCalls().get();
        List<List<JsonNode>> results = conversions ? clickHouse.selectAll(withCalls ? List.of(salesSql, callsSql, leadsSql, costSql)
                : List.of(salesSql, leadsSql, costSql)) : clickHouse.selectAll(List.of(leadsSql, costSql));
        if (!conversions) {
            results = List.of(List.of(), List.of(), results.get(0), results.get(1));
        } else if (!withCalls) {
            results = List.of(results.get(0), List.of(), results.get(1), results.get(2));
        }
        for (JsonNode j : results.get(0)) {
            MetricCatalog.Totals t = row.apply(j);
            saleSums.forEach(sum -> sum.sum.set(t, j.get(sum.alias).asLong()));
        }
        for (JsonNode j : results.get(1)) {
            MetricCatalog.Totals t = row.apply(j);
            t.calls = j.get("n_calls").asLong();
            t.uniqueCalls = j.get("n_unique").asLong();
            t.qualifiedCalls = j.get("n_qualified").asLong();
            t.unqualifiedCalls = j.get("n_unqualified").asLong();
            t.canceledCalls = j.get("n_canceled").asLong();
            t.noShowCalls = j.get("n_no_show").asLong();
        }
        List<JsonNode> traffic = results.get(2);
        if (byVersions && traffic.stream().anyMatch(j -> j.get("n_click_leads").asLong() != j.get("n_clicks").asLong())) {
            traffic = clickHouse.select(currentLeadsSql);
        }
        for (JsonNode j : traffic) {
            MetricCatalog.Totals t = row.apply(j);
            t.leads = j.get("n_leads").asLong();
            t.clicks = j.get("n_clicks").asLong();
        }
        for (JsonNode j : results.get(3)) {
            row.apply(j).adSpend = j.get("c_cost").asLong();
        }
        started.customCosts().get().forEach((k, cents) -> out.computeIfAbsent(k, x -> new MetricCatalog.Totals()).customCost += cents);
        return out;
    }

    /** The click columns of the joined clicks: a path's, and the source tag that reportSourceVisibility filters on. */
    private static final Set<CurrentClicks.Column> CLICK_COLUMNS = EnumSet.of(CurrentClicks.Column.SOURCE_LINK_TAG, CurrentClicks.Column.LEAD_ID,
            CurrentClicks.Column.CLICK_DATE, CurrentClicks.Column.IS_ORGANIC, CurrentClicks.Column.INTEGRATION_TYPE, CurrentClicks.Column.AD_SOURCE_ID,
            CurrentClicks.Column.ADSPEND_AD_ID);

    /** The sale flags a sum or filter may read. */
    private static final List<Column> FLAGS = List.of(Column.RECURRING, Column.FIRST_SALE, Column.REFUNDED);

    /** The money columns, each computed in cents under this alias when read (the price as {@code cents}). */
    private static final Map<Column, String> MONEY = new java.util.EnumMap<>(Map.of(Column.PRICE, "cents", Column.TAXES, "c_tax",
            Column.SHIPPING, "c_ship", Column.COST_OF_GOODS, "c_cogs", Column.HARD_COST, "c_hard", Column.REFUNDED_AMOUNT, "c_refund"));

    /**
     * The sums of the sales statement: the {@link MetricCatalog.Sum} each fills, its aggregate over the credited sales
     * ({@code LEAD} stands for the sale's lead column) and the sale columns it reads.
     */
    private enum SaleSum {
        SALES(MetricCatalog.Sum.SALES, "n_sales", "count()"),
        ONE_TIME_SALES(MetricCatalog.Sum.ONE_TIME_SALES, "n_one_time", "countIf(is_recurring = 0)", Column.RECURRING),
        CUSTOMERS(MetricCatalog.Sum.CUSTOMERS, "n_customers", "uniqExact(LEAD)"),
        UNIQUE_CUSTOMERS(MetricCatalog.Sum.UNIQUE_CUSTOMERS, "n_unique_customers", "uniqExactIf(LEAD, is_first_sale = 1)", Column.FIRST_SALE),
        FIRST_ORDERS(MetricCatalog.Sum.FIRST_ORDERS, "n_first_orders", "countIf(is_first_sale = 1)", Column.FIRST_SALE),
        RECURRING_CUSTOMERS(MetricCatalog.Sum.RECURRING_CUSTOMERS, "n_recurring_customers", "uniqExactIf(LEAD, is_recurring = 1)", Column.RECURRING),
        REVENUE(MetricCatalog.Sum.REVENUE, "c_revenue", "sumIf(rev, is_recurring = 0)", Column.RECURRING, Column.PRICE),
        RECURRING_REVENUE(MetricCatalog.Sum.RECURRING_REVENUE, "c_recurring", "sumIf(rev, is_recurring = 1)", Column.RECURRING, Column.PRICE),
        FIRST_REVENUE(MetricCatalog.Sum.FIRST_REVENUE, "c_first", "sumIf(rev, is_first_sale = 1)", Column.FIRST_SALE, Column.PRICE),
        GROSS_TOTAL(MetricCatalog.Sum.GROSS_TOTAL, "c_gross", "sum(cents)", Column.PRICE),
        REFUND_COUNT(MetricCatalog.Sum.REFUND_COUNT, "n_refunds", "countIf(is_refunded = 1)", Column.REFUNDED),
        REFUND(MetricCatalog.Sum.REFUND, "c_refunds", "sumIf(c_refund, is_refunded = 1)", Column.REFUNDED, Column.REFUNDED_AMOUNT),
        TAXES(MetricCatalog.Sum.TAXES, "c_taxes", "sum(c_tax)", Column.TAXES),
        SHIPPING(MetricCatalog.Sum.SHIPPING, "c_shipping", "sum(c_ship)", Column.SHIPPING),
        COST_OF_GOODS(MetricCatalog.Sum.COST_OF_GOODS, "c_goods", "sum(c_cogs)", Column.COST_OF_GOODS),
        HARD_COSTS(MetricCatalog.Sum.HARD_COSTS, "c_hard_costs", "sum(c_hard)", Column.HARD_COST);

        final MetricCatalog.Sum sum;
        final String alias;
        final String aggregate;
        final Set<Column> columns;

        SaleSum(MetricCatalog.Sum sum, String alias, String aggregate, Column... columns) {
            this.sum = sum;
            this.alias = alias;
            this.aggregate = aggregate;
            this.columns = columns.length == 0 ? EnumSet.noneOf(Column.class) : EnumSet.copyOf(List.of(columns));
        }

        /** The sums of {@code read} (the sales count always). */
        static List<SaleSum> of(Set<MetricCatalog.Sum> read) {
            return java.util.Arrays.stream(values()).filter(s -> s == SALES || read.contains(s.sum)).toList();
        }
    }

    public static String cents(String column, String rate) {
        return "toInt64(round(toFloat64(" + column + ") * " + rate + " * 100))";
    }

    /** The row key of an attributed conversion: its entity, or the bucket of its date (click date with dayOfAttribution). */
    private static String rowKey(Params p, String entity) {
        return p.grouping().map(u -> "toString(" + TimeBuckets.sqlOfDateTime(u, p.dayOfAttribution() ? "attributed_at" : "conv_at", p.zone()) + ")")
                .orElse(entity);
    }

    private static boolean derivable(Params p) {
        return ConversionTouches.derivable(p.firstClick(), p.windowDays(), p.filters().reportSourceVisibility());
    }

    /** The end of the conversions a report reads: the range's, none (null) with dayOfAttribution. */
    private static java.time.Instant conversionEnd(Params p) {
        return p.dayOfAttribution() ? null : p.end();
    }

    /**
     * Each conversion of {@code conversions} (columns account_id, lead_id, conv_id, conv_at, then {@code extras}, a column list or empty)
     * with the ad, platform and date of the click the model picks (docs/attribution-models.md).
     */
    private static String attributed(String db, String accountId, String conversions, String extras, Type type, String clickFilter,
                                     ScopeAds scopeAds, Params p) {
        String more = extras.isEmpty() ? "" : ", " + extras;
        if (derivable(p)) {
            // the credited click from the projection (only conversions credited to the scope's ads); no click is read
            return "SELECT conv_id, lead_id, conv_at" + more + ", attributed_ad, attributed_platform, attributed_at FROM ("
                    + conversions + ") AS s ALL INNER JOIN (" + ConversionTouches.credited(db, accountId, type, p.start(), conversionEnd(p), p.sources(),
                    p.firstClick(), p.windowDays(), scopeAds) + ") AS t USING (conv_id)";
        }
        String preferred = switch (p.sources()) {
            case prioritize_paid -> "is_organic = 0";
            case prioritize_organic -> "is_organic = 1";
            default -> "1";
        };
        boolean last = !p.firstClick();
        // The order key: the preferred kind of click first, then time, then click id (ties).
        String key = "concat(toString(" + (last ? "if(" + preferred + ", 1, 0)" : "if(" + preferred + ", 0, 1)")
                + "), toString(toUInt32(click_date)), click_id)";
        String pick = last ? "argMax" : "argMin";
        String clicks = "SELECT account_id, lead_id, id AS click_id, click_date, is_organic, integration_type AS click_platform, "
                + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS click_ad FROM "
                + CurrentClicks.matching(db, accountId, "id IN " + CurrentClicks.rawIds(db, accountId, "lead_id IN (SELECT lead_id FROM ("
                + conversions + ") AS buyers_of_raw)").parenthesized(), CLICK_COLUMNS).subquery("cb")
                + " WHERE account_id = " + Sql.str(accountId) + " AND lead_id != ''" + clickFilter
                // only the buyers' clicks enter the join's in-memory table (an account's whole click history would not fit)
                + " AND lead_id IN (SELECT lead_id FROM (" + conversions + ") AS buyers)";
        String window = p.windowDays() > 0 ? " AND click_date >= conv_at - " + (p.windowDays() * 86400L) : "";
        return "SELECT conv_id, lead_id, conv_at" + more + ", " + pick + "(click_ad, " + key + ") AS attributed_ad, " + pick
                + "(click_platform, " + key + ") AS attributed_platform, " + pick + "(click_date, " + key + ") AS attributed_at FROM ("
                + conversions + ") AS s ALL INNER JOIN (" + clicks + ") AS c USING (account_id, lead_id) WHERE click_date <= conv_at"
                + window + " GROUP BY conv_id, lead_id, conv_at" + more;
    }
}
