package dev.attribution.server.reports;

import dev.attribution.api.ApiDates;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.query.attribution.roas.AdEntity;
import dev.attribution.query.attribution.clickhouse.CustomCostAllocation;
import dev.attribution.query.attribution.roas.MarginalCacCurve;
import dev.attribution.query.attribution.roas.RoasReport;
import dev.attribution.server.support.TwoEngines;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;

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
 * The ROAS and marginal-CAC SQL on Debian's ClickHouse 18.16 and on a current engine ({@code ../shared/tools/chdb-http}),
 * on what the API writes: the examples of RoasReportTest and MarginalCacCurveTest are written through HTTP
 * ({@link ReportExamples}) into the test server, and the rows CDC streamed for those two accounts (every table the
 * bridge feeds, as the sink wrote them) are copied onto two bare engines, where the tables fed by materialized views
 * fill themselves. Identical answers on both for every level, basis, model and LTV window, and the examples' numbers.
 * Skipped outside CI when the tool is not beside the repository (as CurrentClickHouseCompatibilityTest).
 */
@MicronautTest(transactional = false)
class RoasCurveCompatibilityTest extends ApiTest {

    private static final ZoneId UTC = ZoneOffset.UTC;

    @Inject
    ClickHouseGateway stack;

    @Inject
    CdcSettings cdc;

    private TwoEngines two;
    private Map<String, ClickHouseGateway> engines;
    private String roasAccount;
    private String curveAccount;

    @BeforeAll
    void start() throws Exception {
        roasAccount = accountOf(ReportExamples.roas(this));
        curveAccount = accountOf(ReportExamples.curve(this).key());
        two = TwoEngines.start("roas");
        engines = two.engines();
        // the streamed tables that hold account rows (the bridge also feeds its own bookkeeping)
        List<String> tables = stack.select("SELECT table FROM system.columns WHERE database = '" + stack.database() + "' AND name = 'account_id'")
                .stream().map(r -> r.get("table").asText()).filter(cdc.getTables()::contains).toList();
        assertTrue(tables.containsAll(List.of("clicks", "sales", "ads", "ad_sets", "ad_spend_daily", "conversion_touches")), tables.toString());
        for (ClickHouseGateway g : engines.values()) {
            for (String table : tables) {
                copy(table, g);
            }
        }
    }

    @AfterAll
    void stop() throws IOException {
        two.close();
    }

    private String accountOf(String key) {
        return get(key, "/api/v1.0/user-info").body().get("result").get("accountId").asText();
    }

    /** The two accounts' rows of a streamed table, as the CDC sink wrote them, into {@code engine}. */
    private void copy(String table, ClickHouseGateway engine) {
        List<JsonNode> rows = stack.select("SELECT * FROM " + stack.database() + "." + table + " WHERE account_id IN ('" + roasAccount + "', '"
                + curveAccount + "')");
        if (rows.isEmpty()) {
            return;
        }
        StringBuilder lines = new StringBuilder();
        rows.forEach(r -> lines.append(r).append('\n'));
        engine.insertJsonEachRow(table, lines.toString().getBytes(StandardCharsets.UTF_8));
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
                Optional<RoasReport.Result> old = new RoasReport(engines.get("18.16"), new CustomCostAllocation(engines.get("18.16"))).report(roasAccount, UTC, r);
                Optional<RoasReport.Result> current = new RoasReport(engines.get("current"), new CustomCostAllocation(engines.get("current"))).report(roasAccount, UTC, r);
                assertEquals(old, current, e[0] + " " + basis);
                assertEquals(!e[0].equals("ad4"), current.isPresent(), e[0]);
            }
        }
        RoasReport.Result camp = new RoasReport(engines.get("current"), new CustomCostAllocation(engines.get("current"))).report(roasAccount, UTC, new RoasReport.Request("camp1",
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
                    MarginalCacCurve.Result old = new MarginalCacCurve(engines.get("18.16"), new CustomCostAllocation(engines.get("18.16"))).curve(curveAccount, UTC, r);
                    MarginalCacCurve.Result current = new MarginalCacCurve(engines.get("current"), new CustomCostAllocation(engines.get("current"))).curve(curveAccount, UTC, r);
                    assertEquals(old, current, e[0] + " " + model + " " + w);
                }
            }
        }
        MarginalCacCurve.Result ad = new MarginalCacCurve(engines.get("current"), new CustomCostAllocation(engines.get("current"))).curve(curveAccount, UTC, new MarginalCacCurve.Request("m_ad1",
                AdEntity.Level.ad, "2026-01-01", "2026-01-10", span("2026-01-01", "2026-01-10"), null, null, MarginalCacCurve.Model.first_click));
        assertEquals(3, ad.curve().size());
        assertEquals(0, new BigDecimal("54.17").compareTo(ad.cacCeiling()));
        assertTrue(ad.saturationPoint() != null);
    }
}
