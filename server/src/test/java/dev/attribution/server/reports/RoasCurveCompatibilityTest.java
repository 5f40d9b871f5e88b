package dev.attribution.server.reports;

import dev.attribution.api.ApiDates;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSchema;
import dev.attribution.clickhouse.ClientV2Gateway;
import dev.attribution.query.attribution.AdEntity;
import dev.attribution.query.attribution.MarginalCacCurve;
import dev.attribution.query.attribution.RoasReport;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

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

    private Path chdbData;
    private long chdbPid;
    private final Map<String, ClickHouseGateway> engines = new TreeMap<>();

    @BeforeAll
    void start() throws Exception {
        // ../shared/tools/chdb-http beside the repository (or beside a parent, for a worktree under /work/wt/).
        Path tool = repoRoot().resolveSibling("shared").resolve("tools/chdb-http/start");
        for (Path up = repoRoot().getParent(); !Files.isExecutable(tool) && up != null && up.getParent() != null; up = up.getParent()) {
            tool = up.resolveSibling("shared").resolve("tools/chdb-http/start");
        }
        if (!Files.isExecutable(tool) && !"true".equals(System.getenv("CI"))) {
            Assumptions.abort("chdb-http not found at " + tool);
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        chdbData = Files.createTempDirectory("chdb-roas-");
        Process starter = new ProcessBuilder("bash", tool.toString(), Integer.toString(port), chdbData.toString())
                .redirectErrorStream(true).start();
        String out = new String(starter.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (starter.waitFor() != 0) {
            throw new IllegalStateException("chdb-http did not start: " + out);
        }
        String[] lines = out.split("\n");
        long pid = Long.parseLong(lines[lines.length - 1].trim());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy)));
        chdbPid = pid;
        String db = "roas_" + Long.toHexString(System.nanoTime());
        engines.put("18.16", new ClientV2Gateway(TestStack.get().clickhouseUrl(), db, "default", ""));
        engines.put("current", new ClientV2Gateway("http://127.0.0.1:" + port, db, "default", ""));
        for (ClickHouseGateway g : engines.values()) {
            new ClickHouseSchema(g, false).migrate();
            RoasReportTest.load(new ReportRows(g, ACCOUNT));
            MarginalCacCurveTest.load(new ReportRows(g, ACCOUNT));
        }
    }

    @AfterAll
    void stop() throws IOException {
        engines.values().forEach(ClickHouseGateway::close);
        ProcessHandle.of(chdbPid).ifPresent(ProcessHandle::destroy);
        if (chdbData != null) {
            try (var files = Files.walk(chdbData)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
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
                Optional<RoasReport.Result> old = new RoasReport(engines.get("18.16")).report(ACCOUNT, UTC, r);
                Optional<RoasReport.Result> current = new RoasReport(engines.get("current")).report(ACCOUNT, UTC, r);
                assertEquals(old, current, e[0] + " " + basis);
                assertEquals(!e[0].equals("ad4"), current.isPresent(), e[0]);
            }
        }
        RoasReport.Result camp = new RoasReport(engines.get("current")).report(ACCOUNT, UTC, new RoasReport.Request("camp1",
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
                    MarginalCacCurve.Result old = new MarginalCacCurve(engines.get("18.16")).curve(ACCOUNT, UTC, r);
                    MarginalCacCurve.Result current = new MarginalCacCurve(engines.get("current")).curve(ACCOUNT, UTC, r);
                    assertEquals(old, current, e[0] + " " + model + " " + w);
                }
            }
        }
        MarginalCacCurve.Result ad = new MarginalCacCurve(engines.get("current")).curve(ACCOUNT, UTC, new MarginalCacCurve.Request("m_ad1",
                AdEntity.Level.ad, "2026-01-01", "2026-01-10", span("2026-01-01", "2026-01-10"), null, null, MarginalCacCurve.Model.first_click));
        assertEquals(3, ad.curve().size());
        assertEquals(0, new BigDecimal("54.17").compareTo(ad.cacCeiling()));
        assertTrue(ad.saturationPoint() != null);
    }

    private static Path repoRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("scripts/lib/servers.sh"))) {
            p = p.getParent();
        }
        return p;
    }
}
