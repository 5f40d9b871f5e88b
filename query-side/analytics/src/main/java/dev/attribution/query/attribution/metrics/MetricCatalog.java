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

    /** A raw sum of {@link Totals}: what the statements fill and the formulas of {@link #value} read. */
    public enum Sum {
        SALES(t -> t.sales, (t, v) -> t.sales = v),
        ONE_TIME_SALES(t -> t.oneTimeSales, (t, v) -> t.oneTimeSales = v),
        CUSTOMERS(t -> t.customers, (t, v) -> t.customers = v),
        UNIQUE_CUSTOMERS(t -> t.uniqueCustomers, (t, v) -> t.uniqueCustomers = v),
        FIRST_ORDERS(t -> t.firstOrders, (t, v) -> t.firstOrders = v),
        RECURRING_CUSTOMERS(t -> t.recurringCustomers, (t, v) -> t.recurringCustomers = v),
        REVENUE(t -> t.revenue, (t, v) -> t.revenue = v),
        RECURRING_REVENUE(t -> t.recurringRevenue, (t, v) -> t.recurringRevenue = v),
        FIRST_REVENUE(t -> t.firstRevenue, (t, v) -> t.firstRevenue = v),
        GROSS_TOTAL(t -> t.grossTotal, (t, v) -> t.grossTotal = v),
        REFUND_COUNT(t -> t.refundCount, (t, v) -> t.refundCount = v),
        REFUND(t -> t.refund, (t, v) -> t.refund = v),
        TAXES(t -> t.taxes, (t, v) -> t.taxes = v),
        SHIPPING(t -> t.shipping, (t, v) -> t.shipping = v),
        COST_OF_GOODS(t -> t.costOfGoods, (t, v) -> t.costOfGoods = v),
        HARD_COSTS(t -> t.hardCosts, (t, v) -> t.hardCosts = v),
        CALLS(t -> t.calls, (t, v) -> t.calls = v),
        UNIQUE_CALLS(t -> t.uniqueCalls, (t, v) -> t.uniqueCalls = v),
        QUALIFIED_CALLS(t -> t.qualifiedCalls, (t, v) -> t.qualifiedCalls = v),
        UNQUALIFIED_CALLS(t -> t.unqualifiedCalls, (t, v) -> t.unqualifiedCalls = v),
        CANCELED_CALLS(t -> t.canceledCalls, (t, v) -> t.canceledCalls = v),
        NO_SHOW_CALLS(t -> t.noShowCalls, (t, v) -> t.noShowCalls = v),
        LEADS(t -> t.leads, (t, v) -> t.leads = v),
        CLICKS(t -> t.clicks, (t, v) -> t.clicks = v),
        AD_SPEND(t -> t.adSpend, (t, v) -> t.adSpend = v),
        CUSTOM_COST(t -> t.customCost, (t, v) -> t.customCost = v);

        private final java.util.function.ToLongFunction<Totals> get;
        private final java.util.function.ObjLongConsumer<Totals> set;

        Sum(java.util.function.ToLongFunction<Totals> get, java.util.function.ObjLongConsumer<Totals> set) {
            this.get = get;
            this.set = set;
        }

        public long of(Totals t) {
            return get.applyAsLong(t);
        }

        public void set(Totals t, long value) {
            set.accept(t, value);
        }
    }

    /**
     * The sums each metric reads, found from {@link #value} itself (so this table cannot drift from the formulas): a
     * metric reads a sum when its value changes with that sum alone, on any of a few totals of unrelated sizes.
     */
    private static final java.util.Map<String, Set<Sum>> READS = new java.util.HashMap<>();

    static {
        java.util.Random random = new java.util.Random(26);
        List<Totals> probes = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Totals t = new Totals();
            for (Sum sum : Sum.values()) {
                sum.set(t, 1 + random.nextInt(1_000_000));
            }
            probes.add(t);
        }
        for (String field : NAMES) {
            Set<Sum> reads = java.util.EnumSet.noneOf(Sum.class);
            for (Totals probe : probes) {
                Object before = value(field, probe, "n", "p");
                for (Sum sum : Sum.values()) {
                    Totals changed = copy(probe);
                    sum.set(changed, sum.of(changed) * 7 + 100_003);
                    if (!java.util.Objects.equals(before, value(field, changed, "n", "p"))) {
                        reads.add(sum);
                    }
                }
            }
            READS.put(field, reads);
        }
    }

    private static Totals copy(Totals t) {
        Totals c = new Totals();
        for (Sum sum : Sum.values()) {
            sum.set(c, sum.of(t));
        }
        return c;
    }

    /** The sums the metrics {@code fields} read (names of {@link #NAMES}): a statement need compute no other. */
    public static Set<Sum> reads(java.util.Collection<String> fields) {
        Set<Sum> out = java.util.EnumSet.noneOf(Sum.class);
        fields.forEach(f -> out.addAll(READS.getOrDefault(f, Set.of())));
        return out;
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
