package dev.attribution.server.reports;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plain-Java scientific attribution over generated events, as docs/attribution-models.md ("Scientific") defines it:
 * paths built from the events directly (no SQL), the Markov chain solved with exact rational arithmetic (Gauss-Jordan
 * on fractions, independent of the production solver's doubles).
 */
final class ScientificOracle {

    static final String OTHER = "(other)";

    /** An exact fraction, always reduced, positive denominator. */
    record Q(BigInteger n, BigInteger d) {
        static final Q ZERO = of(0, 1);
        static final Q ONE = of(1, 1);

        static Q of(long n, long d) {
            return make(BigInteger.valueOf(n), BigInteger.valueOf(d));
        }

        static Q make(BigInteger n, BigInteger d) {
            if (d.signum() < 0) {
                n = n.negate();
                d = d.negate();
            }
            BigInteger g = n.gcd(d);
            return g.signum() == 0 || g.equals(BigInteger.ONE) ? new Q(n, d) : new Q(n.divide(g), d.divide(g));
        }

        Q add(Q o) {
            return make(n.multiply(o.d).add(o.n.multiply(d)), d.multiply(o.d));
        }

        Q sub(Q o) {
            return add(new Q(o.n.negate(), o.d));
        }

        Q mul(Q o) {
            return make(n.multiply(o.n), d.multiply(o.d));
        }

        Q div(Q o) {
            return make(n.multiply(o.d), d.multiply(o.n));
        }

        boolean isZero() {
            return n.signum() == 0;
        }

        double toDouble() {
            return new BigDecimal(n).divide(new BigDecimal(d), 30, RoundingMode.HALF_EVEN).doubleValue();
        }

        /** This many cents as a money amount: to 1e-6 cent (HALF_UP), then HALF_UP to the cent (the documented rule). */
        BigDecimal money() {
            return new BigDecimal(n).divide(new BigDecimal(d), 6, RoundingMode.HALF_UP).setScale(0, RoundingMode.HALF_UP).movePointLeft(2);
        }
    }

    record Path(List<String> channels, boolean converted) {
    }

    private ScientificOracle() {
    }

    /** Conversion probability from START with {@code removed} (may be null) made a dead end, exactly. */
    static Q conversion(List<Path> paths, List<String> channels, String removed) {
        int n = channels.size();
        Map<String, Integer> idx = new HashMap<>();
        for (int i = 0; i < n; i++) {
            idx.put(channels.get(i), i + 1);
        }
        long[][] counts = new long[n + 1][n + 3];
        for (Path p : paths) {
            int from = 0;
            for (String c : p.channels()) {
                counts[from][idx.get(c)]++;
                from = idx.get(c);
            }
            counts[from][p.converted() ? n + 1 : n + 2]++;
        }
        int m = n + 1;
        int cut = removed == null ? -1 : idx.get(removed);
        Q[][] a = new Q[m][m + 1];
        for (int i = 0; i < m; i++) {
            long out = 0;
            for (long x : counts[i]) {
                out += x;
            }
            for (int j = 0; j <= m; j++) {
                a[i][j] = Q.ZERO;
            }
            a[i][i] = Q.ONE;
            if (i == cut || out == 0) {
                continue;
            }
            for (int j = 0; j < m; j++) {
                if (j != cut && counts[i][j] != 0) {
                    a[i][j] = a[i][j].sub(Q.of(counts[i][j], out));
                }
            }
            a[i][m] = Q.of(counts[i][n + 1], out);
        }
        for (int col = 0; col < m; col++) {
            int p = col;
            while (a[p][col].isZero()) {
                p++;
            }
            Q[] t = a[col];
            a[col] = a[p];
            a[p] = t;
            for (int r = 0; r < m; r++) {
                if (r != col && !a[r][col].isZero()) {
                    Q f = a[r][col].div(a[col][col]);
                    for (int k = col; k <= m; k++) {
                        a[r][k] = a[r][k].sub(f.mul(a[col][k]));
                    }
                }
            }
        }
        return a[0][m].div(a[0][0]);
    }

    private static String channel(AttributionOracle.Click c, Map<String, AttributionOracle.Ad> ads, String depth) {
        AttributionOracle.Ad ad = c.adId().isEmpty() || c.platform().isEmpty() ? null : ads.get(c.adId());
        String entity = AttributionOracle.entityOf(c, ad, depth);
        return entity == null ? OTHER : entity;
    }

    /** The kept touches of a path, in (click time, click id) order, after prioritize_paid / prioritize_organic. */
    private static List<AttributionOracle.Click> path(List<AttributionOracle.Click> candidates, String config, AttributionOracle.Opts o) {
        List<AttributionOracle.Click> kept = candidates.stream().filter(c -> o.keeps(c, config)).toList();
        Boolean preferOrganic = config.equals("prioritize_paid") ? Boolean.FALSE : config.equals("prioritize_organic") ? Boolean.TRUE : null;
        if (preferOrganic != null && kept.stream().anyMatch(c -> c.organic() == preferOrganic)) {
            kept = kept.stream().filter(c -> c.organic() == preferOrganic).toList();
        }
        return kept.stream().sorted(Comparator.comparing(AttributionOracle.Click::at).thenComparing(AttributionOracle.Click::id)).toList();
    }

    /** Rows by entity id: metric name → expected value (BigDecimal, Double for fractional counts, Long or null). */
    static Map<String, Map<String, Object>> compute(AttributionOracle.Data d, String depth, String config, int windowDays, int scientificDays,
                                                    Instant start, Instant end, LocalDate fromDay, LocalDate toDay) {
        return compute(d, depth, config, windowDays, scientificDays, start, end, fromDay, toDay, AttributionOracle.Opts.NONE, null, false);
    }

    /**
     * With the options: the sale and click filters of {@code o} apply before the paths are built; with
     * {@code dayOfAttribution} conversions are the sales of [start, end + L] and each (sale, channel) share is dated by
     * the channel's last touch on the path, counted when in [start, end]; with a grouping rows are the (cut) UTC
     * buckets over all entities. {@code keepAll} (status, ad-account paging, the ad-account row): every one of these
     * entities has a row, zeros included. {@code visibility}: non-converting paths look back scientificDays.
     */
    static Map<String, Map<String, Object>> compute(AttributionOracle.Data d, String depth, String config, int windowDays, int scientificDays,
                                                    Instant start, Instant end, LocalDate fromDay, LocalDate toDay,
                                                    AttributionOracle.Opts o, Set<String> keepAll, boolean visibility) {
        Map<String, AttributionOracle.Ad> ads = new HashMap<>();
        d.ads().forEach(a -> ads.put(a.adId(), a));
        long back = (windowDays > 0 ? Math.min(windowDays, scientificDays) : scientificDays) * 86400L;
        long nonConvertingBack = visibility ? scientificDays * 86400L : back;
        Instant conversionsEnd = o.dayOfAttribution() ? end.plusSeconds(back) : end;
        List<AttributionOracle.Sale> converted = d.sales().stream().filter(s -> !s.at().isBefore(start) && !s.at().isAfter(conversionsEnd) && o.keeps(s))
                .toList();
        Set<String> convertingLeads = new HashSet<>();
        converted.forEach(s -> convertingLeads.add(s.leadId()));
        List<Path> paths = new ArrayList<>();
        Map<AttributionOracle.Sale, List<AttributionOracle.Click>> salePaths = new LinkedHashMap<>();
        for (AttributionOracle.Sale s : converted) {
            List<AttributionOracle.Click> cands = d.clicks().stream().filter(c -> c.leadId().equals(s.leadId()) && !c.at().isAfter(s.at())
                    && !c.at().isBefore(s.at().minusSeconds(back))).toList();
            List<AttributionOracle.Click> p = path(cands, config, o);
            if (!p.isEmpty()) {
                salePaths.put(s, p);
                paths.add(new Path(p.stream().map(c -> channel(c, ads, depth)).toList(), true));
            }
        }
        Map<String, List<AttributionOracle.Click>> byLead = new LinkedHashMap<>();
        for (AttributionOracle.Click c : d.clicks()) {
            if (!convertingLeads.contains(c.leadId()) && !c.at().isBefore(start.minusSeconds(nonConvertingBack)) && !c.at().isAfter(end)) {
                byLead.computeIfAbsent(c.leadId(), k -> new ArrayList<>()).add(c);
            }
        }
        for (List<AttributionOracle.Click> cs : byLead.values()) {
            List<AttributionOracle.Click> p = path(cs, config, o);
            if (!p.isEmpty()) {
                paths.add(new Path(p.stream().map(c -> channel(c, ads, depth)).toList(), false));
            }
        }
        Set<String> channelSet = new LinkedHashSet<>();
        paths.forEach(p -> channelSet.addAll(p.channels()));
        List<String> channels = new ArrayList<>(channelSet);
        Map<String, Q> effect = new HashMap<>();
        Q full = salePaths.isEmpty() ? Q.ZERO : conversion(paths, channels, null);
        for (String c : channels) {
            effect.put(c, full.isZero() ? Q.ZERO : Q.ONE.sub(conversion(paths, channels, c).div(full)));
        }
        // Each (sale, channel) share with its date and bucket ("" without grouping; none when outside the range).
        record Share(AttributionOracle.Sale sale, String channel, Q w, String bucket) {
        }
        List<Share> shares = new ArrayList<>();
        salePaths.forEach((s, p) -> {
            Map<String, Instant> lastTouch = new LinkedHashMap<>();
            p.forEach(c -> lastTouch.merge(channel(c, ads, depth), c.at(), (a, b) -> a.isAfter(b) ? a : b));
            Q sum = Q.ZERO;
            for (String c : lastTouch.keySet()) {
                sum = sum.add(effect.get(c));
            }
            for (String c : lastTouch.keySet()) {
                Instant at = o.dayOfAttribution() ? lastTouch.get(c) : s.at();
                if (at.isBefore(start) || at.isAfter(end)) {
                    continue;
                }
                String bucket = o.grouping().equals("source_link") ? ""
                        : AttributionOracle.bucket(o.grouping(), o.day(at), fromDay).toString();
                shares.add(new Share(s, c, sum.isZero() ? Q.of(1, lastTouch.size()) : effect.get(c).div(sum), bucket));
            }
        });
        Map<String, Set<String>> salesOfLead = new HashMap<>();
        Map<String, Set<String>> firstOfLead = new HashMap<>();
        for (Share x : shares) {
            salesOfLead.computeIfAbsent(x.sale().leadId() + "|" + x.bucket(), k -> new HashSet<>()).add(x.sale().id());
            if (x.sale().firstSale()) {
                firstOfLead.computeIfAbsent(x.sale().leadId() + "|" + x.bucket(), k -> new HashSet<>()).add(x.sale().id());
            }
        }
        Set<String> entities = new HashSet<>();
        if (depth.equals("keyword")) {
            entities.addAll(o.scope());
        } else {
            d.ads().stream().map(a -> AttributionOracle.entity(a, depth)).filter(o::covers).forEach(entities::add);
        }
        // row → [sales, oneTime, customers, uniqueCustomers, revenue, recurring, firstRevenue]
        Map<String, Q[]> credit = new HashMap<>();
        for (Share sh : shares) {
            if (!entities.contains(sh.channel()) || keepAll != null && !keepAll.contains(sh.channel()) && o.grouping().equals("source_link")) {
                continue;
            }
            AttributionOracle.Sale s = sh.sale();
            String row = o.grouping().equals("source_link") ? sh.channel() : sh.bucket();
            Q w = sh.w();
            Q[] x = credit.computeIfAbsent(row, k -> new Q[]{Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO});
            Q money = w.mul(Q.of(o.revenue(s), 1));
            String lb = s.leadId() + "|" + sh.bucket();
            x[0] = x[0].add(w);
            x[2] = x[2].add(w.div(Q.of(salesOfLead.get(lb).size(), 1)));
            if (s.recurring()) {
                x[5] = x[5].add(money);
            } else {
                x[1] = x[1].add(w);
                x[4] = x[4].add(money);
            }
            if (s.firstSale()) {
                x[3] = x[3].add(w.div(Q.of(firstOfLead.get(lb).size(), 1)));
                x[6] = x[6].add(money);
            }
        }
        // Leads, clicks and cost do not depend on the model: the last-click oracle's values.
        AttributionOracle.Opts baseOpts = new AttributionOracle.Opts(o.newCustomers(), o.ignoreRecurring(), o.grouping(), false,
                o.excludeHardCosts(), o.leads(), o.hiddenTags(), o.scope(), o.zone());
        Map<String, Map<String, Object>> base = AttributionOracle.compute(d, depth, "last_click", config, windowDays, start, end, fromDay, toDay, baseOpts);
        Set<String> rowKeys = new LinkedHashSet<>();
        if (keepAll != null) {
            rowKeys.addAll(keepAll);
        } else {
            rowKeys.addAll(base.keySet());
            rowKeys.addAll(credit.keySet());
        }
        Map<String, Map<String, Object>> rows = new LinkedHashMap<>();
        for (String e : rowKeys) {
            Map<String, Object> b = base.get(e);
            long leads = b == null ? 0 : (Long) b.get("leads");
            long clicks = b == null ? 0 : (Long) b.get("clicks");
            BigDecimal cost = b == null ? BigDecimal.ZERO.setScale(2) : (BigDecimal) b.get("cost");
            Q[] x = credit.get(e);
            if (keepAll == null && x == null && clicks == 0 && cost.signum() == 0) {
                continue;
            }
            if (x == null) {
                x = new Q[]{Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO, Q.ZERO};
            }
            BigDecimal revenue = x[4].money();
            BigDecimal recurring = x[5].money();
            BigDecimal total = revenue.add(recurring);
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("sales", x[0].toDouble());
            m.put("one_time_sales", x[1].toDouble());
            m.put("unique_sales", x[2].toDouble());
            m.put("unique_customers", x[3].toDouble());
            m.put("customers", x[2].toDouble());
            m.put("returning_customers", x[2].sub(x[3]).toDouble());
            m.put("revenue", revenue);
            m.put("recurring_revenue", recurring);
            m.put("total_revenue", total);
            m.put("unique_customers_revenue", x[6].money());
            m.put("leads", leads);
            m.put("clicks", clicks);
            m.put("cost", cost);
            m.put("profit", total.subtract(cost));
            m.put("roas", cost.signum() == 0 ? null : total.divide(cost, 2, RoundingMode.HALF_UP));
            m.put("cac", cost.signum() == 0 ? BigDecimal.ZERO.setScale(2) : x[3].isZero() ? null : per(cost, x[3]));
            m.put("cost_per_sale", x[0].isZero() ? null : per(cost, x[0]));
            m.put("cost_per_unique_customer", x[3].isZero() ? null : per(cost, x[3]));
            m.put("cost_per_lead", leads == 0 ? null : cost.divide(BigDecimal.valueOf(leads), 2, RoundingMode.HALF_UP));
            m.put("aov", x[0].isZero() ? null : per(total, x[0]));
            rows.put(e, m);
        }
        return rows;
    }

    /** An amount over an exact fraction, rounded like money. */
    private static BigDecimal per(BigDecimal amount, Q q) {
        return Q.make(amount.movePointRight(2).toBigIntegerExact().multiply(q.d()), q.n()).money();
    }
}
