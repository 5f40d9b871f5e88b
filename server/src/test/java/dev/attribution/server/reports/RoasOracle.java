package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.attribution.roas.CacCurveBuilder;
import dev.attribution.server.reports.ApiWrittenAccounts.Ad;
import dev.attribution.server.reports.ApiWrittenAccounts.Sale;
import dev.attribution.server.reports.ApiWrittenAccounts.Written;
import dev.attribution.server.reports.ApiWrittenData.Click;
import dev.attribution.server.reports.ApiWrittenData.Cost;
import dev.attribution.server.reports.ApiWrittenData.Source;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** What {@link ApiWrittenRoasTest} expects, computed in plain Java from what was written (design-hierarchy.md). */
final class RoasOracle {

    private RoasOracle() {
    }

    /** Custom cost in cents per (entry ad id, day) for days from..to, by the rule of design-hierarchy.md. */
    static Map<String, Map<LocalDate, Long>> customCost(ApiWrittenData d, LocalDate from, LocalDate to) {
        Map<String, Map<LocalDate, Long>> out = new HashMap<>();
        for (Cost c : d.costs) {
            LocalDate first = c.start().toLocalDate();
            LocalDate last = c.frequency().equals("ONE_TIME") ? first : c.end() == null ? to : c.end().toLocalDate();
            for (LocalDate day = first; !day.isAfter(last); day = day.plusDays(1)) {
                if (day.isBefore(from) || day.isAfter(to)) {
                    continue;
                }
                int n = c.sourceKeys().size();
                for (int i = 0; i < n; i++) {
                    long share = c.cents() / n + (i < c.cents() % n ? 1 : 0);
                    Source s = d.source(c.sourceKeys().get(i));
                    if (s.paid() && share > 0) {
                        out.computeIfAbsent(s.adSourceId(), k -> new TreeMap<>()).merge(day, share, Long::sum);
                    }
                }
            }
        }
        return out;
    }

    static Predicate<Ad> member(String id, String level) {
        return switch (level) {
            case "ad" -> a -> a.id().equals(id);
            case "source_link" -> a -> a.set().equals(id);
            case "campaign" -> a -> a.campaign().equals(id);
            default -> a -> a.account().equals(id);
        };
    }

    static String depth(String level) {
        return switch (level) {
            case "source_link" -> "adset";
            default -> level;
        };
    }

    /** The oracle's data: assigned clicks (ids in time order), the sales, the custom costs as per-day spend of the entries. */
    static AttributionOracle.Data oracleData(Written w, LocalDate from, LocalDate to) {
        List<AttributionOracle.Ad> ads = w.ads.stream().map(a -> new AttributionOracle.Ad(a.id(), a.set(), a.campaign(), a.account())).toList();
        List<AttributionOracle.Click> clicks = new ArrayList<>();
        int i = 0;
        for (Click c : w.assigned()) {
            clicks.add(new AttributionOracle.Click(String.format("k%05d", i++), w.leadId(c.leadEmail()), c.at(), c.organic(),
                    c.organic() ? "" : c.source().platform(), c.organic() ? "" : c.creditedAd(), ""));
        }
        List<AttributionOracle.Sale> sales = w.sales.stream()
                .map(s -> new AttributionOracle.Sale(s.id(), s.leadId(), s.at(), s.cents(), s.recurring(), s.first())).toList();
        List<AttributionOracle.Spend> spend = new ArrayList<>();
        customCost(w.data, from, to).forEach((ad, days) -> days.forEach((day, cents) -> spend.add(new AttributionOracle.Spend(ad, day, cents))));
        return new AttributionOracle.Data(ads, clicks, sales, spend);
    }

    /** The ROAS result expected, or null when the entity has no row. */
    static Map<String, Object> expectedRoas(Written w, String id, String level, String basis, LocalDate from, LocalDate to) {
        ZoneId zone = w.data.zone;
        Instant start = from.atStartOfDay(zone).toInstant();
        Instant end = to.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        AttributionOracle.Opts opts = new AttributionOracle.Opts("all_customers", false, "source_link", basis.equals("click_date"),
                false, null, Set.of(), null);
        Map<String, Map<String, Object>> rows = AttributionOracle.compute(oracleData(w, from, to), depth(level), "last_click",
                "prioritize_paid", 0, start, end, from, to, opts);
        Map<String, Object> row = rows.get(id);
        if (row == null) {
            return null;
        }
        BigDecimal cost = (BigDecimal) row.get("cost");
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("roas", row.get("roas"));
        m.put("new_customers_roas", cost.signum() == 0 ? null
                : ((BigDecimal) row.get("unique_customers_revenue")).divide(cost, 2, RoundingMode.HALF_UP));
        m.put("revenue", row.get("revenue"));
        m.put("recurring_revenue", row.get("recurring_revenue"));
        m.put("total_revenue", row.get("total_revenue"));
        m.put("cost", cost);
        m.put("unique_sales", row.get("unique_sales"));
        m.put("unique_customers", row.get("unique_customers"));
        m.put("reported_result", null); // no spend import: no platform-reported numbers
        m.put("reported_vs_revenue", null);
        return m;
    }

    /** Credited click of a sale under the fixed preset (prioritize_paid, no window): last or first by time. */
    static Click credited(Written w, Sale s, boolean last) {
        List<Click> candidates = w.assigned().stream()
                .filter(c -> w.leadId(c.leadEmail()).equals(s.leadId()) && !c.at().isAfter(s.at())).toList();
        boolean anyPaid = candidates.stream().anyMatch(c -> !c.organic());
        List<Click> pool = candidates.stream().filter(c -> !anyPaid || !c.organic()).toList();
        if (pool.isEmpty()) {
            return null;
        }
        return last ? pool.get(pool.size() - 1) : pool.get(0);
    }

    /** Days of the curve: custom cost spend of the entity per day, new customers per credited click day. */
    static List<CacCurveBuilder.Day> curveDays(Written w, Predicate<Ad> member, boolean last, LocalDate from, LocalDate to) {
        ZoneId zone = w.data.zone;
        Instant start = from.atStartOfDay(zone).toInstant();
        Instant end = to.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        Map<LocalDate, long[]> days = new HashMap<>();
        Set<String> entries = new HashSet<>();
        w.ads.stream().filter(a -> a.entry() && member.test(a)).forEach(a -> entries.add(a.id()));
        customCost(w.data, from, to).forEach((ad, perDay) -> {
            if (entries.contains(ad)) {
                perDay.forEach((day, cents) -> days.computeIfAbsent(day, k -> new long[2])[0] += cents);
            }
        });
        Map<String, Object[]> firsts = new HashMap<>();
        for (Sale s : w.sales) {
            if (!s.first()) {
                continue;
            }
            Click c = credited(w, s, last);
            if (c == null || c.organic() || w.ads.stream().noneMatch(a -> a.id().equals(c.creditedAd()) && member.test(a))) {
                continue;
            }
            Object[] prev = firsts.get(s.leadId());
            if (prev == null || s.at().isBefore(((Sale) prev[0]).at())) {
                firsts.put(s.leadId(), new Object[]{s, c});
            }
        }
        for (Object[] p : firsts.values()) {
            Instant at = ((Click) p[1]).at();
            if (!at.isBefore(start) && !at.isAfter(end)) {
                days.computeIfAbsent(LocalDate.ofInstant(at, zone), k -> new long[2])[1]++;
            }
        }
        List<CacCurveBuilder.Day> out = new ArrayList<>();
        days.forEach((d, v) -> out.add(new CacCurveBuilder.Day(d, v[0], v[1])));
        return out;
    }

    /** The entities of an account: [id, level] at every level, for both platforms. */
    static List<String[]> entities(Written w) {
        List<String[]> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Ad a : w.ads) {
            out.add(new String[]{a.id(), "ad"});
            if (!a.set().isEmpty() && seen.add("s" + a.set())) {
                out.add(new String[]{a.set(), "source_link"});
            }
            if (!a.campaign().isEmpty() && seen.add("c" + a.campaign())) {
                out.add(new String[]{a.campaign(), "campaign"});
            }
            if (seen.add("a" + a.account())) {
                out.add(new String[]{a.account(), "account"});
            }
        }
        return out;
    }

    /** A GET /attribution/roas body against {@link #expectedRoas} (null: no row). */
    static void assertRoas(Map<String, Object> want, JsonNode body, String label) {
        if (want == null) {
            assertFalse(body.has("result"), label + ": expected no row: " + body);
            return;
        }
        JsonNode got = body.get("result");
        assertNotNull(got, label + ": expected a row " + want + ": " + body);
        assertEquals(new ArrayList<>(want.keySet()), RoasReportTest.fieldNames(got), label + ": " + got);
        for (var m : want.entrySet()) {
            if (m.getKey().equals("id")) {
                assertEquals(m.getValue(), got.get("id").asText(), label);
            } else if (m.getValue() instanceof Long n) {
                assertEquals((long) n, got.get(m.getKey()).asLong(), label + " " + m.getKey() + ": " + got + " want " + want);
            } else {
                RoasReportTest.money(m.getValue() == null ? null : m.getValue().toString(), got.get(m.getKey()),
                        label + " " + m.getKey() + ": " + got + " want " + want);
            }
        }
    }
}
