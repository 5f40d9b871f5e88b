package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.attribution.roas.CacCurveBuilder;
import dev.attribution.server.reports.RoasCurveDataSet.Ad;
import dev.attribution.server.reports.RoasCurveDataSet.Click;
import dev.attribution.server.reports.RoasCurveDataSet.Sale;
import dev.attribution.server.reports.RoasCurveDataSet.Spend;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution/roas and /attribution/marginal-cac-curve against a plain-Java oracle over 8 seeded random data
 * sets (half in America/New_York): the oracle credits sales from the raw rows by docs/marginal-cac.md and computes
 * every ROAS metric, the per-day spend and new customers (the curve is then built by CacCurveBuilder, itself checked by
 * CacCurveBuilderTest) and the LTV ceiling.
 *
 * <p>Each data set is written as an integration partner writes it (issue 20), no row inserted by hand: POST /sources
 * (one FACEBOOK source per ad set: adSourceId, ad account, campaign), POST /clicks (past dates, the source's tag, the
 * ad as adspendAdId; organic clicks isOrganic), POST /orders (one item per sale, rebills as isRebill items) and the
 * spend with its reported conversions and revenue through POST /ad-spend/import. All eight accounts' writes are sent
 * in bulk, phase by phase (sources, clicks, orders), each phase awaited once, then one sentinel for ClickHouse. The
 * first-sale flag is the API's (the non-recurring sales of the lead's earliest order): an "existing customer" has an
 * earlier order, in August, before any click, which no click can be credited with. Click ids are the API's (the
 * oracle's tie-break on equal click times). The data sets, their plan and their writing: {@link RoasCurveDataSet}.
 */
@MicronautTest(transactional = false)
class RoasCurvePropertyTest extends ApiTest {

    List<Ad> ads;
    List<Click> clicks;
    List<Sale> sales;
    List<Spend> spend;

    @Test
    void endpointsMatchOracle() {
        int checks = 0;
        int results = 0;
        int ltvCeilings = 0;
        int saturations = 0;
        int multiBucket = 0;
        List<RoasCurveDataSet> sets = new ArrayList<>();
        for (int seed = 1; seed <= 8; seed++) {
            RoasCurveDataSet d = new RoasCurveDataSet(seed);
            d.key = newUnthrottledAccount(d.zone.getId(), Roles.ALL);
            d.generate();
            sets.add(d);
        }
        RoasCurveDataSet.write(this, sets);
        for (RoasCurveDataSet d : sets) {
            int seed = d.seed;
            Random rnd = d.rnd;
            ZoneId zone = d.zone;
            String key = d.key;
            ads = d.ads;
            clicks = d.clicks;
            sales = d.sales;
            spend = d.spend;
            String[][] entities = {{"ad" + rnd.nextInt(2) + rnd.nextInt(2) + rnd.nextInt(2), "ad"}, {"set" + rnd.nextInt(2) + rnd.nextInt(2), "source_link"},
                    {"camp" + rnd.nextInt(2), "campaign"}, {"acctA", "account"}};
            for (String[] e : entities) {
                Predicate<Ad> member = memberOf(e[0], e[1]);
                for (String basis : new String[]{"click_date", "sale_date"}) {
                    String label = "seed " + seed + " " + e[0] + " " + basis;
                    Response r = get(key, "/api/v1.0/attribution/roas?id=" + e[0] + "&level=" + e[1]
                            + "&startDate=2026-10-05&endDate=2026-10-25&basis=" + basis);
                    assertEquals(200, r.status(), label + ": " + r.raw());
                    Map<String, Object> want = roas(member, basis.equals("click_date"), zone, "2026-10-05", "2026-10-25");
                    if (want == null) {
                        assertFalse(r.body().has("result"), label + ": " + r.raw());
                    } else {
                        JsonNode got = r.body().get("result");
                        results++;
                        for (var m : want.entrySet()) {
                            if (m.getValue() instanceof Long n) {
                                assertEquals((long) n, got.get(m.getKey()).asLong(), label + " " + m.getKey() + ": " + got);
                            } else {
                                RoasReportTest.money(m.getValue() == null ? null : m.getValue().toString(), got.get(m.getKey()), label + " " + m.getKey());
                            }
                        }
                    }
                    checks++;
                }
                for (String model : new String[]{"first_click", "last_click"}) {
                    String label = "seed " + seed + " " + e[0] + " " + model;
                    boolean account = e[1].equals("account");
                    BigDecimal ceiling = account || rnd.nextBoolean() ? BigDecimal.valueOf(5 + rnd.nextInt(200)) : null;
                    Response r = get(key, "/api/v1.0/attribution/marginal-cac-curve?id=" + e[0] + "&level=" + e[1]
                            + "&startDate=2026-10-01&endDate=2026-10-31&attributionModel=" + model
                            + (ceiling == null ? "&ltvWindow=30_days" : "&cacCeiling=" + ceiling));
                    assertEquals(200, r.status(), label + ": " + r.raw());
                    JsonNode got = r.body().get("result");
                    BigDecimal ltv = ceiling == null ? ltv(member, model.equals("last_click"), 30) : null;
                    BigDecimal used = ceiling != null ? ceiling : ltv;
                    ltvCeilings += ltv != null ? 1 : 0;
                    CacCurveBuilder.Curve want = CacCurveBuilder.build(days(member, model.equals("last_click"), zone),
                            used == null ? null : used.movePointRight(2));
                    assertEquals(want.daysSampled(), got.get("daysSampled").asInt(), label + ": " + got);
                    assertEquals(want.buckets().size(), got.get("curve").size(), label + ": " + got);
                    multiBucket += want.buckets().size() >= 3 ? 1 : 0;
                    for (int b = 0; b < want.buckets().size(); b++) {
                        CacCurveBuilder.Bucket w = want.buckets().get(b);
                        JsonNode g = got.get("curve").get(b);
                        RoasReportTest.money(w.spendPerDay().toString(), g.get("spendPerDay"), label + " spendPerDay");
                        assertEquals(w.days(), g.get("days").asInt(), label);
                        assertEquals(w.newCustomers(), g.get("newCustomers").asLong(), label + ": " + got);
                        RoasReportTest.money(w.avgCac() == null ? null : w.avgCac().toString(), g.get("avgCac"), label + " avgCac");
                        RoasReportTest.money(w.marginalCac() == null ? null : w.marginalCac().toString(), g.get("marginalCac"), label + " marginalCac");
                    }
                    if (want.saturation() == null) {
                        assertTrue(got.get("saturationPoint").isNull(), label + ": " + got);
                    } else {
                        saturations++;
                        assertEquals(want.saturation().reason(), got.get("saturationPoint").get("reason").asText(), label + ": " + got);
                        RoasReportTest.money(want.saturation().saturatedSpendPerDay().toString(), got.get("saturationPoint").get("saturatedSpendPerDay"), label);
                    }
                    List<String> notes = new ArrayList<>(want.notes());
                    if (ceiling == null && ltv == null && !account) {
                        notes.add("LTV_CEILING_UNAVAILABLE");
                    }
                    List<String> gotNotes = new ArrayList<>();
                    got.get("notes").forEach(n -> gotNotes.add(n.asText()));
                    assertEquals(notes, gotNotes, label + ": " + got);
                    RoasReportTest.money(used == null ? null : used.toString(), got.get("cacCeiling"), label + " cacCeiling");
                    checks++;
                }
            }
        }
        assertEquals(8 * 4 * 4, checks);
        // Not vacuous: most ROAS calls have a result, and the curves have buckets, LTV ceilings and saturation points.
        assertTrue(results > 48 && ltvCeilings > 5 && saturations > 5 && multiBucket > 40,
                results + " results, " + ltvCeilings + " LTV ceilings, " + saturations + " saturations, " + multiBucket + " curves of 3+ buckets");
    }

    private Predicate<Ad> memberOf(String id, String level) {
        return switch (level) {
            case "ad" -> a -> a.id().equals(id);
            case "source_link" -> a -> a.set().equals(id);
            case "campaign" -> a -> a.campaign().equals(id);
            default -> a -> a.account().equals(id);
        };
    }

    /** The credited click of a sale: prioritize_paid, no window, last or first by (time, id); null when none. */
    private Click credited(Sale s, boolean last) {
        List<Click> candidates = clicks.stream().filter(c -> c.lead().equals(s.lead()) && !c.at().isAfter(s.at())).toList();
        boolean anyPaid = candidates.stream().anyMatch(c -> !c.ad().isEmpty());
        List<Click> pool = candidates.stream().filter(c -> !anyPaid || !c.ad().isEmpty()).toList();
        Comparator<Click> order = Comparator.comparing(Click::at).thenComparing(Click::id);
        return pool.isEmpty() ? null : last ? pool.stream().max(order).orElseThrow() : pool.stream().min(order).orElseThrow();
    }

    private boolean inEntity(Click c, Predicate<Ad> member) {
        return c != null && !c.ad().isEmpty() && ads.stream().anyMatch(a -> a.id().equals(c.ad()) && member.test(a));
    }

    private Map<String, Object> roas(Predicate<Ad> member, boolean clickBasis, ZoneId zone, String from, String to) {
        Instant start = LocalDate.parse(from).atStartOfDay(zone).toInstant();
        Instant end = LocalDate.parse(to).plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        long revenue = 0, recurring = 0, first = 0, cost = 0, reported = 0, reportedRevenue = 0, spendRows = 0, counted = 0;
        Set<String> uniqueSales = new HashSet<>();
        Set<String> uniqueCustomers = new HashSet<>();
        for (Sale s : sales) {
            Click c = credited(s, true);
            if (!inEntity(c, member)) {
                continue;
            }
            Instant when = clickBasis ? c.at() : s.at();
            if (when.isBefore(start) || when.isAfter(end)) {
                continue;
            }
            counted++;
            if (s.recurring()) {
                recurring += s.cents();
            } else {
                revenue += s.cents();
            }
            uniqueSales.add(s.lead());
            if (s.first()) {
                first += s.cents();
                uniqueCustomers.add(s.lead());
            }
        }
        for (Spend sp : spend) {
            if (!sp.day().isBefore(LocalDate.parse(from)) && !sp.day().isAfter(LocalDate.parse(to))
                    && ads.stream().anyMatch(a -> a.id().equals(sp.ad()) && member.test(a))) {
                spendRows++;
                cost += sp.cents();
                reported += sp.reportedCents();
                reportedRevenue += sp.reportedRevenueCents();
            }
        }
        boolean anyClick = clicks.stream().anyMatch(c -> inEntity(c, member) && !c.at().isBefore(start) && !c.at().isAfter(end));
        if (counted == 0 && spendRows == 0 && !anyClick) {
            return null;
        }
        long total = revenue + recurring;
        Map<String, Object> m = new HashMap<>();
        m.put("roas", cost == 0 ? null : ratio(total, cost));
        m.put("new_customers_roas", cost == 0 ? null : ratio(first, cost));
        m.put("revenue", BigDecimal.valueOf(revenue, 2));
        m.put("recurring_revenue", BigDecimal.valueOf(recurring, 2));
        m.put("total_revenue", BigDecimal.valueOf(total, 2));
        m.put("cost", BigDecimal.valueOf(cost, 2));
        m.put("unique_sales", (long) uniqueSales.size());
        m.put("unique_customers", (long) uniqueCustomers.size());
        m.put("reported_result", spendRows == 0 ? null : BigDecimal.valueOf(reported, 2));
        m.put("reported_vs_revenue", spendRows == 0 || total == 0 ? null : ratio(reportedRevenue, total));
        return m;
    }

    private static BigDecimal ratio(long a, long b) {
        return BigDecimal.valueOf(a).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }

    /** Each lead's credited first purchase (earliest) for the entity: lead → [sale, click]. */
    private Map<String, Object[]> firstPurchases(Predicate<Ad> member, boolean last) {
        Map<String, Object[]> out = new HashMap<>();
        for (Sale s : sales) {
            if (!s.first()) {
                continue;
            }
            Click c = credited(s, last);
            if (!inEntity(c, member)) {
                continue;
            }
            Object[] prev = out.get(s.lead());
            if (prev == null || s.at().isBefore(((Sale) prev[0]).at())) {
                out.put(s.lead(), new Object[]{s, c});
            }
        }
        return out;
    }

    private List<CacCurveBuilder.Day> days(Predicate<Ad> member, boolean last, ZoneId zone) {
        LocalDate from = LocalDate.parse("2026-10-01");
        LocalDate to = LocalDate.parse("2026-10-31");
        Instant start = from.atStartOfDay(zone).toInstant();
        Instant end = to.plusDays(1).atStartOfDay(zone).toInstant().minusSeconds(1);
        Map<LocalDate, long[]> days = new HashMap<>();
        for (Spend sp : spend) {
            if (!sp.day().isBefore(from) && !sp.day().isAfter(to) && ads.stream().anyMatch(a -> a.id().equals(sp.ad()) && member.test(a))) {
                days.computeIfAbsent(sp.day(), k -> new long[2])[0] += sp.cents();
            }
        }
        for (Object[] p : firstPurchases(member, last).values()) {
            Instant at = ((Click) p[1]).at();
            if (!at.isBefore(start) && !at.isAfter(end)) {
                days.computeIfAbsent(LocalDate.ofInstant(at, zone), k -> new long[2])[1]++;
            }
        }
        List<CacCurveBuilder.Day> out = new ArrayList<>();
        days.forEach((d, v) -> out.add(new CacCurveBuilder.Day(d, v[0], v[1])));
        return out;
    }

    private BigDecimal ltv(Predicate<Ad> member, boolean last, int windowDays) {
        Instant cutoff = Instant.now().minusSeconds(windowDays * 86400L);
        long n = 0, total = 0;
        for (var e : firstPurchases(member, last).entrySet()) {
            Instant first = ((Sale) e.getValue()[0]).at();
            if (first.isAfter(cutoff)) {
                continue;
            }
            n++;
            Instant until = first.plusSeconds(windowDays * 86400L);
            for (Sale s : sales) {
                if (s.lead().equals(e.getKey()) && !s.at().isBefore(first) && s.at().isBefore(until)) {
                    total += s.cents();
                }
            }
        }
        return n == 0 ? null : BigDecimal.valueOf(total).divide(BigDecimal.valueOf(n), 0, RoundingMode.HALF_UP).movePointLeft(2);
    }
}
