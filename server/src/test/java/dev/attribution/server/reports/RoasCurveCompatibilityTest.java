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
 * the examples of RoasReportTest and MarginalCacCurveTest (which write them through the API) as hand-built rows of
 * ClickHouse's streamed tables ({@link ReportRows}, the rows the CDC sink writes) loaded into both, identical answers
 * for every level, basis, model and LTV window. Skipped outside CI when the tool is not beside the repository (as
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
            roasRows(new ReportRows(g, ACCOUNT));
            curveRows(new ReportRows(g, ACCOUNT));
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

    /** RoasReportTest's example (see its comment) as rows. */
    private static void roasRows(ReportRows rows) {
        rows
                .ad("ad1", "set1", "camp1", "acct1").ad("ad2", "set1", "camp1", "acct1").ad("ad3", "set2", "camp1", "acct1")
                .ad("ad4", "set2", "camp1", "acct1")
                .adSet("set1", "camp1", "acct1", "Set One").campaign("camp1", "acct1", "Camp One").adAccount("acct1", "Acct One")
                .click("c1", "L1", "2026-11-02 10:00:00", "ad1").sale("s1", "L1", "2026-11-03 10:00:00", "100.00", false, true)
                .sale("s1r", "L1", "2026-11-10 10:00:00", "30.00", true, false)
                .click("c2", "L2", "2026-10-28 10:00:00", "ad2").sale("s2", "L2", "2026-11-04 10:00:00", "50.00", false, true)
                .click("c3", "L3", "2026-11-05 10:00:00", "ad1").sale("s3", "L3", "2026-11-20 10:00:00", "80.00", false, false)
                .click("c4", "L4", "2026-11-06 10:00:00", "ad3").sale("s4", "L4", "2026-11-07 10:00:00", "200.00", false, true)
                .click("c5", "L5", "2026-11-08 10:00:00", "").sale("s5", "L5", "2026-11-09 10:00:00", "500.00", false, true)
                .spend("ad1", "set1", "camp1", "acct1", "2026-11-02", "40.00", "0", "0")
                .spend("ad1", "set1", "camp1", "acct1", "2026-11-03", "60.00", "2", "150.00")
                .spend("ad2", "set1", "camp1", "acct1", "2026-11-04", "25.00", "0", "0")
                .spend("ad3", "set2", "camp1", "acct1", "2026-11-06", "10.00", "0", "0")
                .spend("ad1", "set1", "camp1", "acct1", "2026-10-20", "999.00", "5", "5000.00")
                .write();
    }

    /**
     * MarginalCacCurveTest's example (see its comment) as rows: r1's first order (before any click) is its sale's
     * first_sale = 0; ads and the campaign carry names here, which only ClickHouse rows can give them.
     */
    private static void curveRows(ReportRows start) {
        ReportRows rows = start
                .ad("m_ad1", "m_set1", "m_camp1", "m_acct").ad("m_other", "m_set2", "m_camp1", "m_acct").ad("m_ad2", "m_set3", "m_camp2", "m_acct")
                .adSet("m_set1", "m_camp1", "m_acct", "Curve Set").campaign("m_camp1", "m_acct", "Curve Camp").adAccount("m_acct", "Curve Account");
        String[][] days = {{"01", "40", "n01"}, {"02", "9", "n02"}, {"03", "20", "n03a", "n03b"}, {"04", "11", "n04"},
                {"05", "39", "n05a", "n05b"}, {"06", "19", "n06"}, {"07", "10", "n07"}, {"08", "41", "n08"}, {"09", "21", "n09"}, {"10", null, "n10"}};
        for (String[] d : days) {
            if (d[1] != null) {
                rows.spend("m_ad1", "m_set1", "m_camp1", "m_acct", "2026-01-" + d[0], d[1], "0", "0");
            }
            for (int i = 2; i < d.length; i++) {
                String lead = d[i];
                rows.click("k" + lead, lead, "2026-01-" + d[0] + " 10:00:00", "m_ad1");
                if (!lead.equals("n02")) {
                    rows.sale("s" + lead, lead, "2026-01-" + d[0] + " 11:00:00", "50.00", false, true);
                }
            }
        }
        rows.click("kn02b", "n02", "2026-01-03 09:00:00", "m_other").sale("sn02", "n02", "2026-01-03 12:00:00", "50.00", false, true)
                .sale("sn01r", "n01", "2026-01-11 11:00:00", "20.00", true, false)
                .sale("sn01b", "n01", "2026-02-15 11:00:00", "30.00", false, false)
                .click("kr1", "r1", "2026-01-05 08:00:00", "m_ad1").sale("sr1", "r1", "2026-01-05 09:00:00", "70.00", false, false)
                .spend("m_ad1", "m_set1", "m_camp1", "m_acct", "2026-02-01", "500.00", "0", "0");
        for (int i = 1; i <= 4; i++) {
            rows.spend("m_ad2", "m_set3", "m_camp2", "m_acct", "2026-01-0" + i, String.valueOf(4 + i), "0", "0");
        }
        rows.write();
    }
}
