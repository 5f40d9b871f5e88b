package dev.attribution.query.attribution.metrics;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Set;

/**
 * The metric names of spec 4.5.1 and how each is computed from a row's {@link Totals}
 * (docs/attribution-models.md, "Metrics"). Names the store cannot compute are accepted and answer null.
 */
public final class MetricCatalog {

    /** Every name of 4.5.1; other names answer 400 {@code Invalid field: <name>}. */
    public static final List<String> NAMES = List.of(
            "sales", "unique_sales", "one_time_sales", "cost_per_sale", "cost_per_unique_sale", "cost_per_unique_sales",
            "refund_count", "refund_sales_percentage", "refunded_sales_percentage",
            "revenue", "total_revenue", "recurring_revenue", "refund", "refund_revenue_percentage",
            "refunded_revenue_percentage", "aov", "taxes", "cost_of_goods", "shipping_value", "hard_costs", "gross_margins",
            "cost", "profit", "net_profit", "net_profit_percentage", "contribution_profit", "contribution_margin", "roi",
            "roas", "cac", "new_customers_roas",
            "calls", "unique_calls", "qualified_calls", "unqualified_calls", "canceled_calls", "no_show_calls",
            "cost_per_call", "cost_per_qualified_call", "cost_per_unique_call", "time_of_sale_attribution",
            "time_of_call_attribution",
            "leads", "new_leads", "leads_optins", "cost_per_lead", "cost_per_new_lead",
            "customers", "total_customers", "unique_customers", "unique_customers_revenue", "cost_per_unique_customer",
            "new_customers_percentage", "new_customers_aov", "new_customers_orders", "recurring_customers",
            "recurring_customers_percentage", "returning_customers", "returning_customers_rate",
            "returning_customers_revenue", "returning_customers_revenue_rate",
            "clicks", "new_visits", "cost_per_new_visit", "cost_per_click", "impressions", "ctr", "cpm", "cvr",
            "partial_video_views", "reported", "reported_result", "shop_reported_result", "reported_vs_revenue",
            "30_days_ltv", "60_days_ltv", "90_days_ltv", "6_months_ltv", "1_year_ltv", "30_days_ltv_forecast",
            "60_days_ltv_forecast", "90_days_ltv_forecast", "6_months_ltv_forecast", "1_year_ltv_forecast", "churn_rate",
            "new_subscriptions", "canceled_subscriptions", "direct_subscriptions", "new_mrr", "mrr", "arr", "new_trials",
            "converted_trials", "canceled_trials", "cost_per_new_subscriptions", "cost_per_new_trials",
            "subscription_30_days_forecast", "subscription_60_days_forecast", "subscription_90_days_forecast",
            "subscription_6_months_forecast", "subscription_1_year_forecast",
            "carts", "atc_events", "purchased_carts", "atc_cvr", "atc_rate", "cost_per_atc",
            "name", "parent_name");

    /** Names this implementation computes; every other name of {@link #NAMES} answers null. */
    public static final Set<String> COMPUTED = Set.of(
            "sales", "unique_sales", "one_time_sales", "cost_per_sale", "cost_per_unique_sale", "cost_per_unique_sales",
            "refund_count", "refund_sales_percentage", "refunded_sales_percentage",
            "revenue", "total_revenue", "recurring_revenue", "refund", "refund_revenue_percentage",
            "refunded_revenue_percentage", "aov", "taxes", "cost_of_goods", "shipping_value", "hard_costs", "gross_margins",
            "cost", "profit", "net_profit", "net_profit_percentage", "roi", "roas", "cac", "new_customers_roas",
            "calls", "unique_calls", "qualified_calls", "unqualified_calls", "canceled_calls", "no_show_calls",
            "cost_per_call", "cost_per_qualified_call", "cost_per_unique_call",
            "leads", "cost_per_lead", "customers", "total_customers", "unique_customers", "unique_customers_revenue",
            "cost_per_unique_customer", "new_customers_percentage", "new_customers_aov", "new_customers_orders",
            "recurring_customers", "recurring_customers_percentage", "returning_customers", "returning_customers_rate",
            "returning_customers_revenue", "returning_customers_revenue_rate", "clicks", "cost_per_click",
            "name", "parent_name");

    /** A row's raw sums; money in cents (revenue amounts already net of hard costs with excludeHardCosts). */
    public static final class Totals {
        public long sales, oneTimeSales, customers, uniqueCustomers, firstOrders, recurringCustomers;
        public long revenue, recurringRevenue, firstRevenue, grossTotal;
        public long refundCount, refund, taxes, shipping, costOfGoods, hardCosts;
        public long calls, uniqueCalls, qualifiedCalls, unqualifiedCalls, canceledCalls, noShowCalls;
        public long leads, clicks, adSpend, customCost;

        /** Ad spend plus the custom costs allocated to the row. */
        public long cost() {
            return adSpend + customCost;
        }

        public long totalRevenue() {
            return revenue + recurringRevenue;
        }
    }

    private MetricCatalog() {
    }

    /** The {@code fields} parameter: names of {@link #NAMES}, deduplicated in order; 400 for any other name. */
    public static List<String> parseFields(String raw) {
        List<String> fields = new java.util.ArrayList<>();
        for (String f : raw.split(",")) {
            String name = f.trim().replace("\"", "");
            if (name.isEmpty()) {
                continue;
            }
            if (!NAMES.contains(name)) {
                throw dev.attribution.api.ApiException.badRequest("Invalid field: " + name);
            }
            if (!fields.contains(name)) {
                fields.add(name);
            }
        }
        if (fields.isEmpty()) {
            throw dev.attribution.api.ApiException.badRequest("Missing required parameter: fields");
        }
        return fields;
    }

    /**
     * {@link #value} as written into a row: an explicit JSON null where there is no value (the service's JSON
     * settings leave out Java nulls, and the spec answers null for metrics without a value).
     */
    public static Object cell(String field, Totals t, String name, String parentName) {
        Object v = value(field, t, name, parentName);
        return v == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : v;
    }

    /** One metric of a row; {@code name}/{@code parentName} label it (null for date buckets without parent). */
    public static Object value(String field, Totals t, String name, String parentName) {
        long total = t.totalRevenue();
        long cost = t.cost();
        long netProfit = t.grossTotal - t.taxes - t.shipping - t.costOfGoods - t.hardCosts - cost;
        long returning = t.customers - t.uniqueCustomers;
        long returningRevenue = total - t.firstRevenue;
        return switch (field) {
            case "name" -> name;
            case "parent_name" -> parentName;
            case "sales" -> t.sales;
            case "one_time_sales" -> t.oneTimeSales;
            case "unique_sales", "customers", "total_customers" -> t.customers;
            case "unique_customers" -> t.uniqueCustomers;
            case "returning_customers" -> returning;
            case "recurring_customers" -> t.recurringCustomers;
            case "new_customers_orders" -> t.firstOrders;
            case "refund_count" -> t.refundCount;
            case "revenue" -> money(t.revenue);
            case "recurring_revenue" -> money(t.recurringRevenue);
            case "total_revenue" -> money(total);
            case "unique_customers_revenue" -> money(t.firstRevenue);
            case "returning_customers_revenue" -> money(returningRevenue);
            case "refund" -> money(t.refund);
            case "taxes" -> money(t.taxes);
            case "shipping_value" -> money(t.shipping);
            case "cost_of_goods" -> money(t.costOfGoods);
            case "hard_costs" -> money(t.hardCosts);
            case "gross_margins" -> money(t.grossTotal - t.costOfGoods - t.hardCosts);
            case "net_profit" -> money(netProfit);
            case "net_profit_percentage" -> percent(netProfit, t.grossTotal);
            case "leads" -> t.leads;
            case "clicks" -> t.clicks;
            case "calls" -> t.calls;
            case "unique_calls" -> t.uniqueCalls;
            case "qualified_calls" -> t.qualifiedCalls;
            case "unqualified_calls" -> t.unqualifiedCalls;
            case "canceled_calls" -> t.canceledCalls;
            case "no_show_calls" -> t.noShowCalls;
            case "cost" -> money(cost);
            case "profit" -> money(total - cost);
            case "roas" -> cost == 0 ? null : ratio(total, cost);
            case "new_customers_roas" -> cost == 0 ? null : ratio(t.firstRevenue, cost);
            case "roi" -> cost == 0 ? null : percent(total - cost, cost);
            case "cac" -> cost == 0 ? money(0) : t.uniqueCustomers == 0 ? null : perUnit(cost, t.uniqueCustomers);
            case "cost_per_sale" -> perUnitOrNull(cost, t.sales);
            case "cost_per_unique_sale", "cost_per_unique_sales" -> perUnitOrNull(cost, t.customers);
            case "cost_per_unique_customer" -> perUnitOrNull(cost, t.uniqueCustomers);
            case "cost_per_lead" -> perUnitOrNull(cost, t.leads);
            case "cost_per_click" -> perUnitOrNull(cost, t.clicks);
            case "cost_per_call" -> perUnitOrNull(cost, t.calls);
            case "cost_per_qualified_call" -> perUnitOrNull(cost, t.qualifiedCalls);
            case "cost_per_unique_call" -> perUnitOrNull(cost, t.uniqueCalls);
            case "aov" -> perUnitOrNull(total, t.sales);
            case "new_customers_aov" -> perUnitOrNull(t.firstRevenue, t.uniqueCustomers);
            case "refund_sales_percentage", "refunded_sales_percentage" -> percent(t.refundCount, t.sales);
            case "refund_revenue_percentage", "refunded_revenue_percentage" -> percent(t.refund, total);
            case "new_customers_percentage" -> percent(t.uniqueCustomers, t.customers);
            case "recurring_customers_percentage" -> percent(t.recurringCustomers, t.customers);
            case "returning_customers_rate" -> percent(returning, t.customers);
            case "returning_customers_revenue_rate" -> percent(returningRevenue, total);
            default -> null;
        };
    }

    static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    static BigDecimal perUnit(long cents, long n) {
        return BigDecimal.valueOf(cents, 2).divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_UP);
    }

    static BigDecimal perUnitOrNull(long cents, long n) {
        return n == 0 ? null : perUnit(cents, n);
    }

    static BigDecimal ratio(long a, long b) {
        return BigDecimal.valueOf(a).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }

    /** a / b × 100 to 2 decimals; null when b is 0. */
    static BigDecimal percent(long a, long b) {
        return b == 0 ? null : BigDecimal.valueOf(a * 100).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }
}
