package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.models.AttributionReport;
import dev.attribution.query.attribution.request.AttributionRequest;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The arithmetic of the path models (docs/attribution-models.md, "Scientific"), apart from where the paths come from:
 * a path's touches ordered under sourceConfiguration, the click models' whole-sale picks, the Markov chain's removal
 * effects ({@link MarkovChain}) spread over each converting path's channels, the per-row sums of those shares and
 * their metrics rounded like money. {@link ScientificAttribution} reads the paths from ClickHouse and feeds them here.
 */
public final class PathCredit {

    private PathCredit() {
    }

    /** The channel of touches that map to no entity at the requested level (organic, no ad, other platform). */
    public static final String OTHER = "(other)";

    /** A touch: click time (epoch seconds), click id, organic flag, channel. */
    public record Touch(long at, String clickId, boolean organic, String channel) {
    }

    /** A converting path's sale; {@code at} its date (epoch seconds). */
    public record Sale(String saleId, String leadId, boolean recurring, boolean firstSale, long cents, List<Touch> touches, long at) {

        public Sale(String saleId, String leadId, boolean recurring, boolean firstSale, long cents, List<Touch> touches) {
            this(saleId, leadId, recurring, firstSale, cents, touches, 0);
        }
    }

    /** One sale's share credited to one channel of its path, dated {@code at} (epoch seconds). */
    public record Item(Sale sale, String channel, double weight, long at) {
    }

    /** Fractional sums of one entity; money in (unrounded) cents. */
    public static final class Credit {
        public double sales;
        public double oneTimeSales;
        public double customers;
        public double uniqueCustomers;
        public double revenue;
        public double recurringRevenue;
        public double uniqueCustomersRevenue;
    }

    /** The click models over paths: the whole sale to the last (first) touch's channel, dated by the sale or that touch. */
    static List<Item> picked(List<Sale> converting, boolean first, boolean byClickDate) {
        List<Item> items = new ArrayList<>();
        for (Sale s : converting) {
            Touch t = first ? s.touches().get(0) : s.touches().get(s.touches().size() - 1);
            items.add(new Item(s, t.channel(), 1.0, byClickDate ? t.at() : s.at()));
        }
        return items;
    }

    /** prioritize_paid keeps only the paid touches when there is one, prioritize_organic the reverse; then sorts. */
    public static List<Touch> order(List<Touch> touches, AttributionRequest.SourceConfiguration sources) {
        Boolean preferOrganic = switch (sources) {
            case prioritize_paid -> false;
            case prioritize_organic -> true;
            default -> null;
        };
        List<Touch> kept = touches;
        if (preferOrganic != null && touches.stream().anyMatch(t -> t.organic() == preferOrganic)) {
            kept = touches.stream().filter(t -> t.organic() == preferOrganic).toList();
        }
        return kept.stream().sorted(Comparator.comparingLong(Touch::at).thenComparing(Touch::clickId)).toList();
    }

    /** Builds the chain, solves it, and spreads every converting path's sale over its channels by removal effect. */
    public static Map<String, Credit> credit(List<Sale> converting, List<List<Touch>> nonConverting) {
        return sum(items(converting, nonConverting, false), i -> i.channel().equals(OTHER) ? null : i.channel(), i -> "", false);
    }

    /**
     * Every (sale, channel of its path) pair with the channel's share of the sale, dated by the sale, or with
     * {@code byClickDate} by the channel's last touch on the path (dayOfAttribution).
     */
    public static List<Item> items(List<Sale> converting, List<List<Touch>> nonConverting, boolean byClickDate) {
        List<MarkovChain.Path> paths = new ArrayList<>();
        for (Sale s : converting) {
            paths.add(new MarkovChain.Path(s.touches().stream().map(Touch::channel).toList(), true));
        }
        for (List<Touch> q : nonConverting) {
            paths.add(new MarkovChain.Path(q.stream().map(Touch::channel).toList(), false));
        }
        return items(converting, new MarkovChain(paths).removalEffects(), byClickDate);
    }

    /**
     * Every (sale, channel of its path) pair of {@code converting} with the channel's share of the sale under the
     * chain's removal {@code effects} (every channel of the paths must have one), dated as {@link #items(List, List, boolean)}.
     */
    public static List<Item> items(List<Sale> converting, Map<String, Double> effects, boolean byClickDate) {
        List<Item> items = new ArrayList<>();
        for (Sale s : converting) {
            Map<String, Long> lastTouch = new HashMap<>();
            s.touches().forEach(t -> lastTouch.merge(t.channel(), t.at(), Math::max));
            weights(s.touches(), effects).forEach((c, w) -> items.add(new Item(s, c, w, byClickDate ? lastTouch.get(c) : s.at())));
        }
        return items;
    }

    /**
     * Sums the items per row key ({@code rowKey} null = in no row). {@code bucket} is the item's date bucket (null =
     * outside the range): a lead counts 1 customer per bucket, spread like its sales with a share dated in it.
     */
    public static Map<String, Credit> sum(List<Item> items, Function<Item, String> rowKey, Function<Item, String> bucket,
                                          boolean distinctLeads) {
        Map<String, Set<String>> leadsOfRow = new HashMap<>();
        Map<String, Set<String>> firstLeadsOfRow = new HashMap<>();
        Map<String, Set<String>> salesOfLead = new HashMap<>();
        Map<String, Set<String>> firstSalesOfLead = new HashMap<>();
        for (Item i : items) {
            String b = bucket.apply(i);
            if (b != null) {
                salesOfLead.computeIfAbsent(i.sale().leadId() + '\t' + b, k -> new HashSet<>()).add(i.sale().saleId());
                if (i.sale().firstSale()) {
                    firstSalesOfLead.computeIfAbsent(i.sale().leadId() + '\t' + b, k -> new HashSet<>()).add(i.sale().saleId());
                }
            }
        }
        Map<String, Credit> credit = new LinkedHashMap<>();
        for (Item i : items) {
            String b = bucket.apply(i);
            String key = b == null ? null : rowKey.apply(i);
            if (key == null) {
                continue;
            }
            Sale s = i.sale();
            double x = i.weight();
            Credit c = credit.computeIfAbsent(key, k -> new Credit());
            c.sales += x;
            if (distinctLeads) {
                leadsOfRow.computeIfAbsent(key, k -> new HashSet<>()).add(s.leadId());
                if (s.firstSale()) {
                    firstLeadsOfRow.computeIfAbsent(key, k -> new HashSet<>()).add(s.leadId());
                }
            } else {
                c.customers += x / salesOfLead.get(s.leadId() + '\t' + b).size();
            }
            if (s.recurring()) {
                c.recurringRevenue += x * s.cents();
            } else {
                c.oneTimeSales += x;
                c.revenue += x * s.cents();
            }
            if (s.firstSale()) {
                if (!distinctLeads) {
                    c.uniqueCustomers += x / firstSalesOfLead.get(s.leadId() + '\t' + b).size();
                }
                c.uniqueCustomersRevenue += x * s.cents();
            }
        }
        if (distinctLeads) {
            credit.forEach((k, c) -> {
                c.customers = leadsOfRow.getOrDefault(k, Set.of()).size();
                c.uniqueCustomers = firstLeadsOfRow.getOrDefault(k, Set.of()).size();
            });
        }
        return credit;
    }

    /** The share of one sale per distinct channel of its path: removal effect over the path's sum of removal effects. */
    static Map<String, Double> weights(List<Touch> touches, Map<String, Double> effects) {
        Set<String> distinct = new LinkedHashSet<>();
        touches.forEach(t -> distinct.add(t.channel()));
        double sum = 0;
        for (String c : distinct) {
            sum += effects.get(c);
        }
        Map<String, Double> w = new LinkedHashMap<>();
        for (String c : distinct) {
            w.put(c, sum == 0 ? 1.0 / distinct.size() : effects.get(c) / sum);
        }
        return w;
    }

    /** Unrounded cents to whole cents: first to 1e-6 cent (drops floating-point noise), then HALF_UP. */
    public static long cents(double exact) {
        return BigDecimal.valueOf(exact).setScale(6, RoundingMode.HALF_UP).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    public static Object metric(String field, Credit c, long leads, long clicks, long cost, String name) {
        long revenue = cents(c.revenue);
        long total = revenue + cents(c.recurringRevenue);
        return switch (field) {
            case "name" -> name;
            case "sales" -> c.sales;
            case "one_time_sales" -> c.oneTimeSales;
            case "unique_sales", "customers" -> c.customers;
            case "unique_customers" -> c.uniqueCustomers;
            case "returning_customers" -> c.customers - c.uniqueCustomers;
            case "revenue" -> AttributionReport.money(revenue);
            case "recurring_revenue" -> AttributionReport.money(cents(c.recurringRevenue));
            case "total_revenue" -> AttributionReport.money(total);
            case "unique_customers_revenue" -> AttributionReport.money(cents(c.uniqueCustomersRevenue));
            case "leads" -> leads;
            case "clicks" -> clicks;
            case "cost" -> AttributionReport.money(cost);
            case "profit" -> AttributionReport.money(total - cost);
            case "roas" -> cost == 0 ? null : AttributionReport.ratio(total, cost);
            case "cac" -> cost == 0 ? AttributionReport.money(0) : c.uniqueCustomers == 0 ? null : per(cost, c.uniqueCustomers);
            case "cost_per_sale" -> c.sales == 0 ? null : per(cost, c.sales);
            case "cost_per_unique_customer" -> c.uniqueCustomers == 0 ? null : per(cost, c.uniqueCustomers);
            case "cost_per_lead" -> leads == 0 ? null : AttributionReport.perUnit(cost, leads);
            case "aov" -> c.sales == 0 ? null : per(total, c.sales);
            default -> null;
        };
    }

    /** Cents over a fractional count, rounded like money: to 1e-6 cent, then HALF_UP to the cent. */
    static BigDecimal per(long cents, double n) {
        return AttributionReport.money(cents(cents / n));
    }
}
