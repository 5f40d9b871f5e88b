package dev.attribution.server.reports;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plain-Java attribution (no SQL) over generated events, as docs/attribution-models.md defines it: the events, the
 * options, and the rows summed per entity or date bucket; which click a conversion is credited to is
 * {@link CreditedClick}.
 */
final class AttributionOracle {

    record Ad(String adId, String adSetId, String campaignId, String adAccountId) {
        Ad(String adId, String adSetId, String campaignId) {
            this(adId, adSetId, campaignId, "acct");
        }
    }

    /** {@code tag}: the click's source link tag ("" = none); {@code keywordId}: the kwd- id of its targetid ("" = none). */
    record Click(String id, String leadId, Instant at, boolean organic, String platform, String adId, String tag, String keywordId) {
        Click(String id, String leadId, Instant at, boolean organic, String platform, String adId, String tag) {
            this(id, leadId, at, organic, platform, adId, tag, "");
        }

        Click(String id, String leadId, Instant at, boolean organic, String platform, String adId) {
            this(id, leadId, at, organic, platform, adId, "", "");
        }
    }

    /**
     * {@code deductions}: the sale's taxes + shipping + cost of goods in cents (what excludeHardCosts subtracts);
     * {@code refunded} / {@code refundCents}: whether it is refunded and the refunded amount (refund_count, refund);
     * {@code hardCents}: its share of the order's hard cost (hard_costs).
     */
    record Sale(String id, String leadId, Instant at, long cents, boolean recurring, boolean firstSale, long deductions,
                boolean refunded, long refundCents, long hardCents) {
        Sale(String id, String leadId, Instant at, long cents, boolean recurring, boolean firstSale, long deductions) {
            this(id, leadId, at, cents, recurring, firstSale, deductions, false, 0, 0);
        }

        Sale(String id, String leadId, Instant at, long cents, boolean recurring, boolean firstSale) {
            this(id, leadId, at, cents, recurring, firstSale, 0);
        }
    }

    /**
     * The options of spec 4.5 the oracles model. {@code leads} = the leads whose stage is requested (null = no
     * lead_stage); {@code hiddenTags} = tags of deleted source links, whose clicks are ignored (reportSourceVisibility);
     * {@code scope} = the entities the report covers (an ad account's endpoint), null = all; {@code zone} = the
     * account's time zone, whose calendar days are the date buckets (UTC unless given).
     */
    record Opts(String newCustomers, boolean ignoreRecurring, String grouping, boolean dayOfAttribution,
                boolean excludeHardCosts, Set<String> leads, Set<String> hiddenTags, Set<String> scope, java.time.ZoneId zone) {
        static final Opts NONE = new Opts("all_customers", false, "source_link", false, false, null, Set.of(), null);

        Opts(String newCustomers, boolean ignoreRecurring, String grouping, boolean dayOfAttribution,
             boolean excludeHardCosts, Set<String> leads, Set<String> hiddenTags, Set<String> scope) {
            this(newCustomers, ignoreRecurring, grouping, dayOfAttribution, excludeHardCosts, leads, hiddenTags, scope, java.time.ZoneOffset.UTC);
        }

        /** The account-zone calendar day of an instant. */
        LocalDate day(Instant at) {
            return LocalDate.ofInstant(at, zone);
        }

        /** Whether the entity at the report's depth is in the report (scope null = every entity). */
        boolean covers(String entity) {
            return scope == null || scope.contains(entity);
        }

        boolean keeps(Sale s) {
            return !(ignoreRecurring && s.recurring() || newCustomers.equals("only_unique_customers") && !s.firstSale()
                    || newCustomers.equals("only_returning_customers") && s.firstSale()) && keepsLead(s.leadId());
        }

        boolean keepsLead(String lead) {
            return leads == null || leads.contains(lead);
        }

        boolean keeps(Click c, String config) {
            return keepsLead(c.leadId()) && !hiddenTags.contains(c.tag())
                    && !(config.equals("only_paid") && c.organic() || config.equals("only_organic") && !c.organic());
        }

        long revenue(Sale s) {
            return excludeHardCosts ? s.cents() - s.deductions() : s.cents();
        }
    }

    record Spend(String adId, LocalDate day, long cents) {
    }

    /**
     * A custom cost as written (spec 4.10): its wall-clock start and end days (end null = open; ONE_TIME: the start
     * day), its amount in cents and its tags in the order sent.
     */
    record CustomCost(boolean daily, LocalDate start, LocalDate end, long cents, List<String> tags) {
    }

    /**
     * The spend custom costs add (docs/attribution-models.md "Custom costs", design of issue 20): DAILY its amount on
     * every day start..end (open end: to {@code toDay}), ONE_TIME on its start day; only days fromDay..toDay. Each
     * day's amount is split evenly over the cost's tags (the first tags take the odd cents), a tag's share evenly over
     * {@code entriesOfTag} (the source entries of the live paid sources with that tag, in order; the first take the
     * odd cents); a tag without entries (organic, hand-made, unknown) adds to no row.
     */
    static List<Spend> customCostSpend(List<CustomCost> costs, Map<String, List<String>> entriesOfTag, LocalDate fromDay, LocalDate toDay) {
        List<Spend> out = new ArrayList<>();
        for (CustomCost cc : costs) {
            LocalDate last = !cc.daily() ? cc.start() : cc.end() == null || cc.end().isAfter(toDay) ? toDay : cc.end();
            for (LocalDate day = cc.start(); !day.isAfter(last); day = day.plusDays(1)) {
                if (day.isBefore(fromDay) || day.isAfter(toDay)) {
                    continue;
                }
                long[] perTag = split(cc.cents(), cc.tags().size());
                for (int t = 0; t < perTag.length; t++) {
                    List<String> entries = entriesOfTag.getOrDefault(cc.tags().get(t), List.of());
                    if (entries.isEmpty()) {
                        continue;
                    }
                    long[] perEntry = split(perTag[t], entries.size());
                    for (int e = 0; e < perEntry.length; e++) {
                        if (perEntry[e] != 0) {
                            out.add(new Spend(entries.get(e), day, perEntry[e]));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** {@code cents} in {@code n} even parts, the first {@code cents mod n} one cent more. */
    static long[] split(long cents, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = cents / n + (i < cents % n ? 1 : 0);
        }
        return out;
    }

    record Data(List<Ad> ads, List<Click> clicks, List<Sale> sales, List<Spend> spend, List<Call> calls) {
        Data(List<Ad> ads, List<Click> clicks, List<Sale> sales, List<Spend> spend) {
            this(ads, clicks, sales, spend, List.of());
        }
    }

    /** A call (section "Metrics": credited like sales, by the call date); {@code state} "" when unset. */
    record Call(String id, String leadId, Instant at, boolean qualified, String state) {
    }

    private AttributionOracle() {
    }

    /**
     * The row entity of a click on {@code ad} (null = none): at depth {@code keyword} its ad group and keyword
     * ({@code <adGroupId>:<keywordId>}, none without a keyword), else the ad's entity.
     */
    static String entityOf(Click c, Ad ad, String depth) {
        if (ad == null) {
            return null;
        }
        if (depth.equals("keyword")) {
            return c.keywordId().isEmpty() ? null : ad.adSetId() + ":" + c.keywordId();
        }
        // a blank id (an ad group sent without a campaign, an ad set no source names) is no entity: no row, and the
        // scientific channel (other)
        String e = entity(ad, depth);
        return e.isEmpty() ? null : e;
    }

    static String entity(Ad ad, String depth) {
        return switch (depth) {
            case "ad" -> ad.adId();
            case "adset" -> ad.adSetId();
            case "account" -> ad.adAccountId();
            default -> ad.campaignId();
        };
    }

    /** Rows by entity id: metric name → expected value (BigDecimal, Long or null). */
    static Map<String, Map<String, Object>> compute(Data d, String depth, String model, String config, int windowDays,
                                                    Instant start, Instant end, LocalDate fromDay, LocalDate toDay) {
        return compute(d, depth, model, config, windowDays, start, end, fromDay, toDay, "all_customers", false, "source_link");
    }

    /**
     * With the options: {@code newCustomers} keeps sales by their first-sale flag, {@code ignoreRecurring} drops
     * rebills (both only for sales), {@code grouping} other than source_link keys rows by the (cut) start date of the
     * UTC day / ISO week / month / year bucket of the sale, click or spend day, over all entities.
     */
    static Map<String, Map<String, Object>> compute(Data d, String depth, String model, String config, int windowDays,
                                                    Instant start, Instant end, LocalDate fromDay, LocalDate toDay,
                                                    String newCustomers, boolean ignoreRecurring, String grouping) {
        return compute(d, depth, model, config, windowDays, start, end, fromDay, toDay,
                new Opts(newCustomers, ignoreRecurring, grouping, false, false, null, Set.of(), null));
    }

    /**
     * With every modelled option: besides the above, {@code dayOfAttribution} keeps a sale when its chosen click's
     * date is in the range (and buckets it by that date), {@code excludeHardCosts} subtracts the deductions from
     * revenue, {@code leads} keeps only those leads' sales and clicks, {@code hiddenTags} drops those clicks.
     */
    static Map<String, Map<String, Object>> compute(Data d, String depth, String model, String config, int windowDays,
                                                    Instant start, Instant end, LocalDate fromDay, LocalDate toDay, Opts o) {
        String grouping = o.grouping();
        java.util.function.BiFunction<String, LocalDate, String> key = (entity, day) -> grouping.equals("source_link") ? entity
                : bucket(grouping, day, fromDay).toString();
        Map<String, Ad> ads = new HashMap<>();
        d.ads().forEach(a -> ads.put(a.adId(), a));
        Map<String, long[]> sums = new LinkedHashMap<>();
        Map<String, Set<String>> uniqueSales = new HashMap<>();
        Map<String, Set<String>> uniqueCustomers = new HashMap<>();
        Map<String, Set<String>> leads = new HashMap<>();
        boolean last = model.equals("last_click");
        Map<String, Set<String>> uniqueCalls = new HashMap<>();
        // calls are not credited to keywords (docs "Keyword levels": call metrics null, a call alone makes no row)
        for (Call call : depth.equals("keyword") ? List.<Call>of() : d.calls()) {
            if (!o.dayOfAttribution() && (call.at().isBefore(start) || call.at().isAfter(end)) || !o.keepsLead(call.leadId())) {
                continue;
            }
            Click chosen = CreditedClick.of(d, call.leadId(), call.at(), config, windowDays, o, last);
            Ad ad = chosen == null || chosen.adId().isEmpty() || chosen.platform().isEmpty() ? null : ads.get(chosen.adId());
            String entity = chosen == null ? null : entityOf(chosen, ad, depth);
            if (entity == null || !o.covers(entity) || o.dayOfAttribution() && (chosen.at().isBefore(start) || chosen.at().isAfter(end))) {
                continue;
            }
            String e = key.apply(entity, o.day(o.dayOfAttribution() ? chosen.at() : call.at()));
            long[] x = sums.computeIfAbsent(e, k -> new long[SLOTS]);
            x[11]++;
            x[call.qualified() ? 12 : 13]++;
            x[14] += call.state().equalsIgnoreCase("CANCELLED") ? 1 : 0;
            x[15] += call.state().equalsIgnoreCase("NO_SHOW") ? 1 : 0;
            uniqueCalls.computeIfAbsent(e, k -> new HashSet<>()).add(call.leadId());
        }
        for (Sale s : d.sales()) {
            if (!o.dayOfAttribution() && (s.at().isBefore(start) || s.at().isAfter(end)) || !o.keeps(s)) {
                continue;
            }
            Click chosen = CreditedClick.of(d, s.leadId(), s.at(), config, windowDays, o, last);
            if (chosen == null) {
                continue;
            }
            Ad ad = chosen.adId().isEmpty() || chosen.platform().isEmpty() ? null : ads.get(chosen.adId());
            String entity = entityOf(chosen, ad, depth);
            if (entity == null || !o.covers(entity) || o.dayOfAttribution() && (chosen.at().isBefore(start) || chosen.at().isAfter(end))) {
                continue;
            }
            String e = key.apply(entity, o.day(o.dayOfAttribution() ? chosen.at() : s.at()));
            long[] x = sums.computeIfAbsent(e, k -> new long[SLOTS]);
            x[0]++;
            if (s.refunded()) {
                x[8]++;
                x[9] += s.refundCents();
            }
            x[10] += s.hardCents();
            if (!s.recurring()) {
                x[1]++;
                x[4] += o.revenue(s);
            } else {
                x[5] += o.revenue(s);
            }
            uniqueSales.computeIfAbsent(e, k -> new HashSet<>()).add(s.leadId());
            if (s.firstSale()) {
                uniqueCustomers.computeIfAbsent(e, k -> new HashSet<>()).add(s.leadId());
                x[6] += o.revenue(s);
            }
        }
        for (Click c : d.clicks()) {
            if (c.at().isBefore(start) || c.at().isAfter(end) || c.adId().isEmpty() || c.platform().isEmpty()
                    || !ads.containsKey(c.adId())) {
                continue;
            }
            String entity = entityOf(c, ads.get(c.adId()), depth);
            if (entity == null || !o.keeps(c, config) || !o.covers(entity)) {
                continue;
            }
            String e = key.apply(entity, o.day(c.at()));
            long[] x = sums.computeIfAbsent(e, k -> new long[SLOTS]);
            x[2]++;
            leads.computeIfAbsent(e, k -> new HashSet<>()).add(c.leadId());
        }
        for (Spend sp : d.spend()) {
            if (sp.day().isBefore(fromDay) || sp.day().isAfter(toDay) || depth.equals("keyword") || !o.covers(entity(ads.get(sp.adId()), depth))) {
                continue;
            }
            String e = key.apply(entity(ads.get(sp.adId()), depth), sp.day());
            sums.computeIfAbsent(e, k -> new long[SLOTS])[3] += sp.cents();
        }
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        sums.forEach((e, x) -> rows.put(e, row(x, uniqueSales.getOrDefault(e, Set.of()).size(),
                uniqueCustomers.getOrDefault(e, Set.of()).size(), leads.getOrDefault(e, Set.of()).size(),
                uniqueCalls.getOrDefault(e, Set.of()).size())));
        return rows;
    }

    /**
     * Slots of a row's sums: sales, one-time, clicks, cost, revenue, recurring, first revenue, -, refunds, refunded,
     * hard costs, calls, qualified, unqualified, canceled, no-show.
     */
    private static final int SLOTS = 16;

    /** The row of an entity or bucket without any sale, click or cost (isAdAccountId pages, the ad_account row). */
    static Map<String, Object> emptyRow() {
        return row(new long[SLOTS], 0, 0, 0, 0);
    }

    private static Map<String, Object> row(long[] x, long uniqueSalesN, long uc, long leadsN, long uniqueCallsN) {
        long sales = x[0];
        long customers = uniqueSalesN;
        long revenue = x[4];
        long recurring = x[5];
        long total = revenue + recurring;
        long cost = x[3];
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sales", sales);
        m.put("one_time_sales", x[1]);
        m.put("unique_sales", uniqueSalesN);
        m.put("unique_customers", uc);
        m.put("customers", customers);
        m.put("returning_customers", customers - uc);
        m.put("revenue", money(revenue));
        m.put("recurring_revenue", money(recurring));
        m.put("total_revenue", money(total));
        m.put("unique_customers_revenue", money(x[6]));
        m.put("leads", leadsN);
        m.put("clicks", x[2]);
        m.put("cost", money(cost));
        m.put("profit", money(total - cost));
        m.put("roas", cost == 0 ? null : BigDecimal.valueOf(total).divide(BigDecimal.valueOf(cost), 2, RoundingMode.HALF_UP));
        m.put("cac", cost == 0 ? money(0) : uc == 0 ? null : per(cost, uc));
        m.put("cost_per_sale", sales == 0 ? null : per(cost, sales));
        m.put("cost_per_unique_customer", uc == 0 ? null : per(cost, uc));
        m.put("cost_per_lead", leadsN == 0 ? null : per(cost, leadsN));
        m.put("aov", sales == 0 ? null : per(total, sales));
        m.put("refund_count", x[8]);
        m.put("refund", money(x[9]));
        m.put("hard_costs", money(x[10]));
        m.put("calls", x[11]);
        m.put("unique_calls", uniqueCallsN);
        m.put("qualified_calls", x[12]);
        m.put("unqualified_calls", x[13]);
        m.put("canceled_calls", x[14]);
        m.put("no_show_calls", x[15]);
        return m;
    }

    /** The bucket's start date, cut by the range start (weeks start on Monday). */
    static LocalDate bucket(String grouping, LocalDate day, LocalDate fromDay) {
        LocalDate b = switch (grouping) {
            case "day" -> day;
            case "week" -> day.minusDays(day.getDayOfWeek().getValue() - 1);
            case "month" -> day.withDayOfMonth(1);
            default -> day.withDayOfYear(1);
        };
        return b.isBefore(fromDay) ? fromDay : b;
    }

    private static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    private static BigDecimal per(long cents, long n) {
        return BigDecimal.valueOf(cents, 2).divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_UP);
    }
}
