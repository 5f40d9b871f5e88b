package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.request.AttributionOptions;
import dev.attribution.query.attribution.request.AttributionRequest;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /attribution} on ClickHouse (spec 4.5): each sale is credited to one click of its lead (the model picks
 * it, see docs/attribution-models.md); rows are the requested ad-platform entities. Money is summed in cents.
 */
@Singleton
public class AttributionReport {

    /** The result: rows in the order of the requested ids, and the ids that do not exist at the level. */
    public record Result(List<Map<String, Object>> rows, List<String> unknownIds) {
    }

    /** Raw sums of one entity, money in cents. */
    record Sums(long sales, long oneTimeSales, long uniqueSales, long uniqueCustomers, long customers,
                long revenue, long recurringRevenue, long uniqueCustomersRevenue, long leads, long clicks, long cost) {
    }

    private final ClickHouseGateway clickHouse;
    private final AttributionRows rows;

    public AttributionReport(ClickHouseGateway clickHouse, AttributionRows rows) {
        this.clickHouse = clickHouse;
        this.rows = rows;
    }

    /** The report with default options (one row per requested source). */
    public Result report(String accountId, ZoneId zone, AttributionRequest r) {
        AttributionRows.Page page = report(accountId, zone, r, AttributionOptions.DEFAULT, List.of());
        return new Result(page.rows(), page.unknownIds());
    }

    /** The report with the options of spec 4.5 (grouping, filters, ad-account paging); see {@link AttributionRows}. */
    public AttributionRows.Page report(String accountId, ZoneId zone, AttributionRequest r, AttributionOptions options,
                                       List<String> leadStagesLower) {
        return rows.report(accountId, zone, r, options, leadStagesLower);
    }

    /** One metric of 4.5.1 from the sums (docs/attribution-models.md defines each). */
    static Object metric(String field, Sums s, String name) {
        long total = s.revenue() + s.recurringRevenue();
        return switch (field) {
            case "name" -> name;
            case "sales" -> s.sales();
            case "one_time_sales" -> s.oneTimeSales();
            case "unique_sales" -> s.uniqueSales();
            case "unique_customers" -> s.uniqueCustomers();
            case "customers" -> s.customers();
            case "returning_customers" -> s.customers() - s.uniqueCustomers();
            case "revenue" -> money(s.revenue());
            case "recurring_revenue" -> money(s.recurringRevenue());
            case "total_revenue" -> money(total);
            case "unique_customers_revenue" -> money(s.uniqueCustomersRevenue());
            case "leads" -> s.leads();
            case "clicks" -> s.clicks();
            case "cost" -> money(s.cost());
            case "profit" -> money(total - s.cost());
            case "roas" -> s.cost() == 0 ? null : ratio(total, s.cost());
            case "cac" -> s.cost() == 0 ? money(0) : s.uniqueCustomers() == 0 ? null : perUnit(s.cost(), s.uniqueCustomers());
            case "cost_per_sale" -> s.sales() == 0 ? null : perUnit(s.cost(), s.sales());
            case "cost_per_unique_customer" -> s.uniqueCustomers() == 0 ? null : perUnit(s.cost(), s.uniqueCustomers());
            case "cost_per_lead" -> s.leads() == 0 ? null : perUnit(s.cost(), s.leads());
            case "aov" -> s.sales() == 0 ? null : perUnit(total, s.sales());
            default -> null;
        };
    }

    public static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    public static BigDecimal perUnit(long cents, long n) {
        return BigDecimal.valueOf(cents, 2).divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_UP);
    }

    public static BigDecimal ratio(long a, long b) {
        return BigDecimal.valueOf(a).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }
}
