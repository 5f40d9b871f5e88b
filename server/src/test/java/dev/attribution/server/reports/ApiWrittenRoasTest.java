package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.attribution.roas.CacCurveBuilder;
import dev.attribution.server.reports.ApiWrittenAccounts.Written;
import dev.attribution.server.reports.ApiWrittenData.Source;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.attribution.server.reports.RoasOracle.assertRoas;
import static dev.attribution.server.reports.RoasOracle.customCost;
import static dev.attribution.server.reports.RoasOracle.member;
import static dev.attribution.server.reports.RoasOracle.expectedRoas;
import static dev.attribution.server.reports.RoasOracle.curveDays;
import static dev.attribution.server.reports.RoasOracle.entities;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reports other than GET /attribution over accounts written only through HTTP, as an integration partner writes
 * them (issue 20, notes/design-hierarchy.md): no SQL, no demo seed, no spend import. Each seeded data set
 * ({@link ApiWrittenData}) has two FACEBOOK sources (ad set ids, one ad account, campaigns), a GOOGLE source (ad group,
 * ad account, sub-type) and an organic source; clicks with and without an ad id, with and without email (connected by
 * ip, or unassigned); multi-item orders with rebills; refunds; calls; DAILY and ONE_TIME custom costs on the source
 * tags. Derived values (lead ids, sale ids and amounts, refunds) are read back through GET /leads and GET /sales.
 *
 * <p>Checked against plain-Java expectations: GET /attribution/roas at levels ad (real ads and the source entry S),
 * source_link, campaign, account with both bases (the credited sales by {@link AttributionOracle}, the cost from the
 * custom costs allocated as the design says); GET /attribution/marginal-cac-curve at the same levels (daily spend from
 * custom costs, new customers per credited click day, the buckets by {@link CacCurveBuilder}). The writing and reading
 * back is {@link ApiWrittenAccounts} (once per test JVM, shared with {@link ApiWrittenJourneyTest}); the expectations
 * {@link RoasOracle}.
 */
@MicronautTest(transactional = false)
class ApiWrittenRoasTest extends ApiTest {

    /** Data sets in CI; more with -Dapi.roas.sets=N. */
    static final int SEEDS = Integer.getInteger("api.roas.sets", 10);

    private final ApiWrittenAccounts writer = new ApiWrittenAccounts(this);
    List<Written> accounts;

    @BeforeAll
    void write() {
        accounts = ApiWrittenAccounts.shared(this, SEEDS);
    }

    // ---------------------------------------------------------------- the checks

    private JsonNode roas(Written w, String id, String level, LocalDate from, LocalDate to, String basis) {
        Response r = get(w.key, "/api/v1.0/attribution/roas?id=" + enc(id) + "&level=" + level + "&startDate=" + from + "&endDate=" + to
                + "&basis=" + basis);
        assertEquals(200, r.status(), "seed " + w.data.seed + " roas " + level + " " + id + ": " + r.raw());
        assertTrue(r.body().has("request_id"), r.raw());
        return r.body();
    }

    @Test
    void roasAtEveryLevelBothBasesMatchesTheOracle() {
        int rows = 0;
        int withCost = 0;
        int withSales = 0;
        for (Written w : accounts) {
            LocalDate today = w.data.today;
            // the whole history is read by sourceEntryCarriesTheCustomCostsAndRealAdsNone and the journey ids' feed-back
            LocalDate[][] ranges = {{today.minusDays(40), today.minusDays(12)}, {today.minusDays(22), today.minusDays(22)}};
            for (String[] e : entities(w)) {
                for (LocalDate[] range : ranges) {
                    for (String basis : List.of("click_date", "sale_date")) {
                        String label = "seed " + w.data.seed + " " + e[1] + " " + e[0] + " " + range[0] + ".." + range[1] + " " + basis;
                        Map<String, Object> want = expectedRoas(w, e[0], e[1], basis, range[0], range[1]);
                        assertRoas(want, roas(w, e[0], e[1], range[0], range[1], basis), label);
                        if (want != null) {
                            rows++;
                            withCost += ((BigDecimal) want.get("cost")).signum() > 0 ? 1 : 0;
                            withSales += (Long) want.get("unique_sales") > 0 ? 1 : 0;
                        }
                    }
                }
            }
            // an ad only unassigned clicks name exists (no 400) and has no row
            assertRoas(null, roas(w, w.data.lonelyAd, "ad", today.minusDays(60), today.minusDays(1), "click_date"), "lonely ad");
        }
        // not vacuous: most calls have a row, with custom costs and credited sales
        assertTrue(rows > 60 && withCost > 30 && withSales > 30, rows + " rows, " + withCost + " with cost, " + withSales + " with sales");
    }

    @Test
    void sourceEntryCarriesTheCustomCostsAndRealAdsNone() {
        for (Written w : accounts) {
            LocalDate from = w.data.today.minusDays(60);
            LocalDate to = w.data.today.minusDays(1);
            Map<String, Map<LocalDate, Long>> costs = customCost(w.data, from, to);
            for (Source s : w.data.sources) {
                if (!s.paid()) {
                    continue;
                }
                long want = costs.getOrDefault(s.adSourceId(), Map.of()).values().stream().mapToLong(Long::longValue).sum();
                assertTrue(want > 0, "every paid source carries a custom cost in the range: seed " + w.data.seed + " " + s.key());
                JsonNode entry = roas(w, s.adSourceId(), "ad", from, to, "click_date").get("result");
                assertNotNull(entry, "source entry " + s.adSourceId());
                RoasReportTest.money(BigDecimal.valueOf(want, 2).toString(), entry.get("cost"), "entry cost " + entry);
                String above = s.campaignLevel() ? "campaign" : "source_link";
                JsonNode set = roas(w, s.adSourceId(), above, from, to, "click_date").get("result");
                RoasReportTest.money(BigDecimal.valueOf(want, 2).toString(), set.get("cost"), "ad set / campaign cost = its entry's " + set);
                for (String ad : s.ads()) {
                    if (w.ads.stream().anyMatch(a -> a.id().equals(ad))) {
                        JsonNode real = roas(w, ad, "ad", from, to, "click_date").get("result");
                        if (real != null) {
                            RoasReportTest.money("0", real.get("cost"), "a real ad gets no share of the source's custom costs " + real);
                        }
                    }
                }
            }
        }
    }

    @Test
    void marginalCacCurveAtEveryLevelMatchesTheOracle() {
        int curves = 0;
        int multiBucket = 0;
        int withCustomers = 0;
        java.util.Random rnd = new java.util.Random(42);
        for (Written w : accounts) {
            LocalDate from = w.data.today.minusDays(55);
            LocalDate to = w.data.today.minusDays(2);
            for (String[] e : entities(w)) {
                for (String model : List.of("first_click", "last_click")) {
                    String label = "seed " + w.data.seed + " curve " + e[1] + " " + e[0] + " " + model;
                    BigDecimal ceiling = BigDecimal.valueOf(1 + rnd.nextInt(20000), 2);
                    Response r = get(w.key, "/api/v1.0/attribution/marginal-cac-curve?id=" + enc(e[0]) + "&level=" + e[1]
                            + "&startDate=" + from + "&endDate=" + to + "&attributionModel=" + model + "&cacCeiling=" + ceiling);
                    assertEquals(200, r.status(), label + ": " + r.raw());
                    JsonNode got = r.body().get("result");
                    CacCurveBuilder.Curve want = CacCurveBuilder.build(curveDays(w, member(e[0], e[1]), model.equals("last_click"), from, to),
                            ceiling.movePointRight(2));
                    assertEquals(e[0], got.get("id").asText(), label);
                    assertEquals(e[1].toUpperCase(java.util.Locale.ROOT), got.get("level").asText(), label);
                    assertEquals(model.toUpperCase(java.util.Locale.ROOT), got.get("attributionModel").asText(), label);
                    if (e[1].equals("account")) {
                        assertTrue(got.get("name").isNull(), label + ": " + got);
                    }
                    // the ad set (LinkedIn: the campaign) and the source entry are named after the source (design-hierarchy.md)
                    w.data.sources.stream().filter(x -> e[0].equals(x.adSourceId()) && !e[1].equals("account")
                                    && (x.campaignLevel() || !e[1].equals("campaign")))
                            .findFirst().ifPresent(x -> assertEquals(x.name(), got.get("name").asText(), label + " name: " + got));
                    assertEquals(want.daysSampled(), got.get("daysSampled").asInt(), label + ": " + got);
                    assertEquals(want.buckets().size(), got.get("curve").size(), label + ": " + got);
                    for (int b = 0; b < want.buckets().size(); b++) {
                        CacCurveBuilder.Bucket x = want.buckets().get(b);
                        JsonNode g = got.get("curve").get(b);
                        RoasReportTest.money(x.spendPerDay().toString(), g.get("spendPerDay"), label + " spendPerDay " + got);
                        assertEquals(x.days(), g.get("days").asInt(), label + ": " + got);
                        assertEquals(x.newCustomers(), g.get("newCustomers").asLong(), label + " newCustomers: " + got);
                        RoasReportTest.money(x.avgCac() == null ? null : x.avgCac().toString(), g.get("avgCac"), label + " avgCac");
                        RoasReportTest.money(x.marginalCac() == null ? null : x.marginalCac().toString(), g.get("marginalCac"), label + " marginalCac");
                    }
                    if (want.saturation() == null) {
                        assertTrue(got.get("saturationPoint").isNull(), label + ": " + got);
                    } else {
                        assertEquals(want.saturation().reason(), got.get("saturationPoint").get("reason").asText(), label + ": " + got);
                        RoasReportTest.money(want.saturation().efficientSpendPerDay().toString(),
                                got.get("saturationPoint").get("efficientSpendPerDay"), label);
                    }
                    List<String> notes = new ArrayList<>();
                    got.get("notes").forEach(n -> notes.add(n.asText()));
                    assertEquals(want.notes(), notes, label + ": " + got);
                    RoasReportTest.money(ceiling.toString(), got.get("cacCeiling"), label);
                    assertEquals("CALLER_PROVIDED", got.get("ceilingBasis").asText(), label);
                    curves++;
                    multiBucket += want.buckets().size() >= 2 ? 1 : 0;
                    withCustomers += want.buckets().stream().anyMatch(x -> x.newCustomers() > 0) ? 1 : 0;
                }
            }
        }
        assertTrue(curves > 40 && multiBucket > 20 && withCustomers > 10, curves + " curves, " + multiBucket + " with 2+ buckets, "
                + withCustomers + " with new customers");
    }
}
