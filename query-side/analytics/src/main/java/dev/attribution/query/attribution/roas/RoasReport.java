package dev.attribution.query.attribution.roas;

import dev.attribution.query.attribution.clickhouse.CustomCostAllocation;
import dev.attribution.query.attribution.models.AttributedSales;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.ScopeAds;
import dev.attribution.query.attribution.clickhouse.SpendDays;
import dev.attribution.query.attribution.clickhouse.Sql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@code GET /attribution/roas} on ClickHouse (spec 4.5): the fixed preset (last_click, rebills in total_revenue, no
 * attribution window) for one entity. Definitions: docs/marginal-cac.md ("ROAS").
 */
@Singleton
public class RoasReport {

    /** The parameters (strict: unknown and repeated parameters are refused, spec 4.0). */
    public record Request(String id, AdEntity.Level level, ApiDates.Span span, Basis basis) {


    public     static Request read(QueryParams q, ZoneId zone, Clock clock) {
            String id = q.required("id");
            AdEntity.Level level = AdEntity.Level.of(q.required("level"));
            ApiDates.Span span = ApiDates.attributionSpan(q.required("startDate"), q.required("endDate"), zone, clock);
            Basis basis = q.string("basis").map(Basis::of).orElse(Basis.click_date);
            return new Request(id, level, span, basis);
        }
    }

    public enum Basis {
        click_date, sale_date;

        static Basis of(String v) {
            for (Basis b : values()) {
                if (b.name().equals(v)) {
                    return b;
                }
            }
            throw ApiException.badRequest("Invalid basis: " + v + ". Accepted values: click_date, sale_date");
        }
    }

    /** The fixed metric set; every field is written, null where there is no value. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Result(String id, BigDecimal roas, @JsonProperty("new_customers_roas") BigDecimal newCustomersRoas,
                         BigDecimal revenue, @JsonProperty("recurring_revenue") BigDecimal recurringRevenue,
                         @JsonProperty("total_revenue") BigDecimal totalRevenue, BigDecimal cost,
                         @JsonProperty("unique_sales") long uniqueSales, @JsonProperty("unique_customers") long uniqueCustomers,
                         @JsonProperty("reported_result") BigDecimal reportedResult,
                         @JsonProperty("reported_vs_revenue") BigDecimal reportedVsRevenue) {
    }

    /** Raw sums of the entity, money in cents. */
    record Sums(long uniqueSales, long uniqueCustomers, long revenue, long recurring, long firstRevenue,
                long cost, long spendRows, BigDecimal reportedConversions, long reportedRevenue) {
    }

    private final ClickHouseGateway clickHouse;
    private final CustomCostAllocation customCosts;

    public RoasReport(ClickHouseGateway clickHouse, CustomCostAllocation customCosts) {
        this.clickHouse = clickHouse;
        this.customCosts = customCosts;
    }

    /** The result, or empty when the entity has no row for the range (no credited sale, click or spend row). */
    public Optional<Result> report(String accountId, ZoneId zone, Request r) {
        LocalDate from = LocalDate.ofInstant(r.span().start(), zone);
        LocalDate to = LocalDate.ofInstant(r.span().end(), zone);
        // the entity's ads and custom costs are read while the entity is resolved (an unknown id: 400, both unused)
        AdScope scope = AdEntity.scope(r.level(), r.id());
        Supplier<ScopeAds> adsLater = ScopeAds.readLater(clickHouse, accountId, scope);
        Supplier<java.util.Map<LocalDate, Long>> customLater = customCosts.byDayLater(accountId, scope, r.id(), from, to);
        AdEntity entity = AdEntity.resolve(clickHouse, accountId, r.level(), r.id());
        ScopeAds ads = adsLater.get();
        String db = clickHouse.database();
        String start = Sql.dateTime(r.span().start());
        String end = Sql.dateTime(r.span().end());
        String when = r.basis() == Basis.click_date ? "attributed_at" : "sale_at";
        String salesSql = "SELECT count() AS n_sales, uniqExact(" + AttributedSales.LEAD + ") AS n_unique_sales, "
                + "uniqExactIf(" + AttributedSales.LEAD + ", is_first_sale = 1) AS n_unique_customers, sumIf(cents, is_recurring = 0) AS c_revenue, "
                + "sumIf(cents, is_recurring = 1) AS c_recurring, sumIf(cents, is_first_sale = 1) AS c_first FROM ("
                // a sale is not older than its credited click: by click date, only sales from the start on can count
                + AttributedSales.sql(db, accountId, ads, true, r.span().start(), r.basis() == Basis.click_date ? Sql.LATEST : r.span().end())
                + ") AS x WHERE " + when + " >= " + start + " AND "
                + when + " <= " + end + ClickHouseSql.UNINDEXED_IN_SUBQUERIES;
        String spendSql = "SELECT count() AS n_rows, sum(toInt64(round(toFloat64(spend) * 100))) AS c_cost, "
                + "toString(sum(reported_conversions)) AS reported, sum(toInt64(round(toFloat64(reported_revenue) * 100))) AS c_reported "
                + "FROM " + SpendDays.between(db, accountId, from, to, entity.scope()).subquery("sp") + " WHERE "
                + entity.scope().where();
        String clicksSql = "SELECT count() AS n FROM (" + AttributedSales.clicks(db, accountId, ads, r.span().start(), r.span().end()) + ") AS k";
        List<List<JsonNode>> results = clickHouse.selectAll(List.of(salesSql, spendSql, clicksSql));
        JsonNode s = results.get(0).get(0);
        JsonNode c = results.get(1).get(0);
        long clicks = results.get(2).get(0).get("n").asLong();
        long spendRows = c.get("n_rows").asLong();
        // cost = imported spend + the custom costs allocated to the entity (docs/attribution-models.md, "Custom costs")
        long custom = customLater.get().values().stream().mapToLong(Long::longValue).sum();
        if (s.get("n_sales").asLong() == 0 && spendRows == 0 && clicks == 0 && custom == 0) {
            return Optional.empty();
        }
        Sums sums = new Sums(s.get("n_unique_sales").asLong(), s.get("n_unique_customers").asLong(), s.get("c_revenue").asLong(),
                s.get("c_recurring").asLong(), s.get("c_first").asLong(), (spendRows == 0 ? 0 : c.get("c_cost").asLong()) + custom, spendRows,
                spendRows == 0 ? BigDecimal.ZERO : new BigDecimal(c.get("reported").asText()),
                spendRows == 0 ? 0 : c.get("c_reported").asLong());
        return Optional.of(result(r.id(), sums));
    }

    /** The metrics from the sums (docs/marginal-cac.md defines each). */
    static Result result(String id, Sums s) {
        long total = s.revenue() + s.recurring();
        boolean spend = s.cost() != 0;
        return new Result(id, spend ? ratio(total, s.cost()) : null, spend ? ratio(s.firstRevenue(), s.cost()) : null,
                money(s.revenue()), money(s.recurring()), money(total), money(s.cost()), s.uniqueSales(), s.uniqueCustomers(),
                s.spendRows() == 0 ? null : s.reportedConversions().setScale(2, RoundingMode.HALF_UP),
                s.spendRows() == 0 || total == 0 ? null : ratio(s.reportedRevenue(), total));
    }

    static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    static BigDecimal ratio(long a, long b) {
        return BigDecimal.valueOf(a).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }

    static final List<String> FIELDS = List.of("id", "roas", "new_customers_roas", "revenue", "recurring_revenue",
            "total_revenue", "cost", "unique_sales", "unique_customers", "reported_result", "reported_vs_revenue");
}
