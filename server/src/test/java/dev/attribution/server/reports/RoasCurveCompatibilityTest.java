package dev.attribution.server.reports;

import dev.attribution.api.ApiDates;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.query.attribution.AdEntity;
import dev.attribution.query.attribution.CustomCostAllocation;
import dev.attribution.query.attribution.MarginalCacCurve;
import dev.attribution.query.attribution.RoasReport;
import dev.attribution.server.support.TwoEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ROAS and marginal-CAC SQL on Debian's ClickHouse 18.16 and on a current engine ({@code ../shared/tools/chdb-http}):
 * the hand-built data of RoasReportTest and MarginalCacCurveTest loaded into both, identical answers for every level,
 * basis, model and LTV window. Skipped outside CI when the tool is not beside the repository (as
 * CurrentClickHouseCompatibilityTest).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RoasCurveCompatibilityTest {

    private static final String ACCOUNT = "acc_roas_compat";
    private static final ZoneId UTC = ZoneOffset.UTC;

    private TwoEngines two;
    private Map<String, ClickHouseGateway> engines;

    @BeforeAll
    void start() throws Exception {
        two = TwoEngines.start("roas");
        engines = two.engines();
        for (ClickHouseGateway g : engines.values()) {
            RoasReportTest.load(new ReportRows(g, ACCOUNT));
            MarginalCacCurveTest.load(new ReportRows(g, ACCOUNT));
        }
    }

    @AfterAll
    void stop() throws IOException {
        two.close();
    }

    private static ApiDates.Span span(String start, String end) {
        return ApiDates.attributionSpan(start, end, UTC, Clock.systemUTC());
    }

    @Test
    void roasIdenticalOnBothEngines() {
        String[][] entities = {{"ad1", "ad"}, {"set1", "source_link"}, {"camp1", "campaign"}, {"acct1", "account"}, {"ad4", "ad"}};
        for (String[] e : entities) {
            for (RoasReport.Basis basis : RoasReport.Basis.values()) {
                RoasReport.Request r = new RoasReport.Request(e[0], AdEntity.Level.valueOf(e[1]), span("2026-11-01", "2026-11-15"), basis);
                Optional<RoasReport.Result> old = new RoasReport(engines.get("18.16"), new CustomCostAllocation(engines.get("18.16"))).report(ACCOUNT, UTC, r);
                Optional<RoasReport.Result> current = new RoasReport(engines.get("current"), new CustomCostAllocation(engines.get("current"))).report(ACCOUNT, UTC, r);
                assertEquals(old, current, e[0] + " " + basis);
                assertEquals(!e[0].equals("ad4"), current.isPresent(), e[0]);
            }
        }
        RoasReport.Result camp = new RoasReport(engines.get("current"), new CustomCostAllocation(engines.get("current"))).report(ACCOUNT, UTC, new RoasReport.Request("camp1",
                AdEntity.Level.campaign, span("2026-11-01", "2026-11-15"), RoasReport.Basis.click_date)).orElseThrow();
        assertEquals(0, new BigDecimal("3.04").compareTo(camp.roas()));
    }

    @Test
    void curveIdenticalOnBothEngines() {
        String[][] entities = {{"m_ad1", "ad"}, {"m_set1", "source_link"}, {"m_camp1", "campaign"}, {"m_acct", "account"}, {"m_ad2", "ad"}};
        for (String[] e : entities) {
            AdEntity.Level level = AdEntity.Level.valueOf(e[1]);
            for (MarginalCacCurve.Model model : MarginalCacCurve.Model.values()) {
                for (MarginalCacCurve.LtvWindow w : level == AdEntity.Level.account ? new MarginalCacCurve.LtvWindow[]{null}
                        : MarginalCacCurve.LtvWindow.values()) {
                    MarginalCacCurve.Request r = new MarginalCacCurve.Request(e[0], level, "2026-01-01", "2026-01-10",
                            span("2026-01-01", "2026-01-10"), w, null, model);
                    MarginalCacCurve.Result old = new MarginalCacCurve(engines.get("18.16"), new CustomCostAllocation(engines.get("18.16"))).curve(ACCOUNT, UTC, r);
                    MarginalCacCurve.Result current = new MarginalCacCurve(engines.get("current"), new CustomCostAllocation(engines.get("current"))).curve(ACCOUNT, UTC, r);
                    assertEquals(old, current, e[0] + " " + model + " " + w);
                }
            }
        }
        MarginalCacCurve.Result ad = new MarginalCacCurve(engines.get("current"), new CustomCostAllocation(engines.get("current"))).curve(ACCOUNT, UTC, new MarginalCacCurve.Request("m_ad1",
                AdEntity.Level.ad, "2026-01-01", "2026-01-10", span("2026-01-01", "2026-01-10"), null, null, MarginalCacCurve.Model.first_click));
        assertEquals(3, ad.curve().size());
        assertEquals(0, new BigDecimal("54.17").compareTo(ad.cacCeiling()));
        assertTrue(ad.saturationPoint() != null);
    }

}
