package dev.attribution.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.AdminRuns;
import dev.attribution.server.support.BrowserTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import static dev.attribution.server.console.Console.assertCsvIsTable;
import static dev.attribution.server.console.Console.assertShown;
import static dev.attribution.server.console.Console.assertTableIsAnswer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst console in headless Chromium on a demo-seeded account ({@code scripts/admin demo seed}, as the README
 * has a newcomer do): each page loads and shows the API's answer for the same parameters, the three models side by
 * side, the CAC chart's points, ceiling and saturation marker, CSV equal to the table. Screenshots go to
 * target/screenshots (the README's docs/console-*.png are taken from them).
 */
@MicronautTest(transactional = false)
class ConsoleDemoTest extends BrowserTest {

    static final String FROM = "2026-09-01";
    static final String END = "2026-10-31";
    static final String RANGE = "&startDate=" + FROM + "T00:00:00&endDate=" + END + "T23:59:59";

    String key;
    String level;
    String ad;
    String adAccount;
    Console console;

    @BeforeAll
    void seed() throws IOException {
        TestStack.get().properties().forEach(System::setProperty);
        AdminRuns.Run run = AdminRuns.admin("demo", "seed", "--leads", "200", "--months", "2", "--seed", "7", "--end-date", END);
        assertEquals(0, run.exit(), run.out() + run.err());
        JsonNode seeded = JsonBody.mapper().readTree(run.lastJson());
        key = seeded.get("apiKey").asText();
        level = seeded.get("sampleLevel").asText();
        ad = seeded.get("sampleAdId").asText();
        awaitCdcCaughtUp();
        adAccount = api("/api/v1.0/ads?adSourceIds=" + list(ad)).get("result").get(0).get("adSource").get("adAccountId").asText();
        console = new Console(browser, server.getURL().toString());
        console.useKey(key, null);
        assertEquals("ok", console.keyState());
    }

    @AfterAll
    void quit() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    private JsonNode api(String pathAndQuery) {
        Response r = get(key, pathAndQuery);
        assertEquals(200, r.status(), r.raw());
        return r.body();
    }

    @Test
    void attributionOfTheSampleAdsAccountIsTheApiAnswerAndItsCsv() {
        List<String> fields = List.of("name", "clicks", "leads", "sales", "revenue", "total_revenue", "cost", "roas", "cac");
        console.page("attribution").awaitOptions("attribution-form", "adAccount")
                .set("attribution-form", "level", level).set("attribution-form", "scope", "account")
                .set("attribution-form", "adAccount", adAccount).set("attribution-form", "from", FROM).set("attribution-form", "to", END)
                .set("attribution-form", "grouping", "source_link").set("attribution-form", "model", "last_click")
                .set("attribution-form", "compare", "false").metrics("attribution-form", fields);
        assertEquals("done", console.submit("attribution-form", "attribution-result"));
        JsonNode answer = api("/api/v1.0/attribution?attributionModel=last_click&level=" + level + RANGE + "&fields=" + String.join(",", fields)
                + "&ids=" + adAccount + "&isAdAccountId=true&timeGroupingOption=source_link&pageSize=250").get("result");
        assertTrue(answer.size() > 1, answer.toString());
        assertTableIsAnswer(console.rows("attribution-table"), answer, r -> r.get("id").asText(), r -> r.get("id"), c -> c);
        console.sortBy("attribution-table", "total_revenue");
        assertCsvIsTable(console.csv("#attribution-result a.csv"), console.columns("attribution-table"), console.rows("attribution-table"));
        browser.fullPageScreenshot("console-demo-attribution");
    }

    @Test
    void theThreeModelsSideBySideAreTheThreeApiAnswers() {
        List<String> fields = List.of("name", "leads", "sales", "total_revenue", "cost");
        console.page("attribution").set("attribution-form", "level", level).set("attribution-form", "scope", "ids")
                .set("attribution-form", "ids", ad).set("attribution-form", "from", FROM).set("attribution-form", "to", END)
                .set("attribution-form", "grouping", "month").set("attribution-form", "compare", "true").metrics("attribution-form", fields);
        assertEquals("done", console.submit("attribution-form", "attribution-result"));
        List<Map<String, String>> rows = console.rows("attribution-table");
        for (String model : List.of("last_click", "first_click", "scientific")) {
            JsonNode answer = api("/api/v1.0/attribution?attributionModel=" + model + "&level=" + level + RANGE + "&fields="
                    + String.join(",", fields) + "&ids=" + ad + "&timeGroupingOption=month").get("result");
            assertEquals(2, answer.size(), model + ": two month buckets " + answer);
            assertTableIsAnswer(rows, answer, r -> r.get("id").asText(), r -> r.get("id"),
                    c -> List.of("id", "name", "start_date", "end_date").contains(c) ? c : c + "@" + model);
        }
        assertTrue(console.columns("attribution-table").containsAll(List.of("leads@last_click", "leads@first_click", "leads@scientific")));
        assertCsvIsTable(console.csv("#attribution-result a.csv"), console.columns("attribution-table"), rows);
        browser.screenshot("console-demo-three-models");
    }

    @Test
    void theCacCurveDrawsItsPointsCeilingAndSaturation() {
        // a ceiling of 1 per customer: every extra customer costs more, so the curve saturates (the API says where)
        console.page("cac").awaitOptions("cac-form", "pick").set("cac-form", "pick", "account:" + adAccount)
                .set("cac-form", "from", FROM).set("cac-form", "to", END).set("cac-form", "cacCeiling", "1")
                .set("cac-form", "model", "first_click");
        assertEquals("account", browser.script("return document.getElementById('cac-form').elements.level.value"));
        assertEquals("done", console.submit("cac-form", "cac-result"));
        JsonNode r = api("/api/v1.0/attribution/marginal-cac-curve?id=" + adAccount + "&level=account" + RANGE
                + "&attributionModel=first_click&cacCeiling=1").get("result");
        JsonNode curve = r.get("curve");
        assertTrue(curve.size() >= 3, r.toString());
        JsonNode sat = r.get("saturationPoint");
        assertFalse(sat.isNull(), "the API finds a saturation point under a ceiling of 1: " + r);

        long averages = 0;
        long marginals = 0;
        for (JsonNode b : curve) {
            averages += b.get("avgCac").isNull() ? 0 : 1;
            marginals += b.get("marginalCac").isNull() ? 0 : 1;
        }
        assertEquals(averages, console.drawnPoints("cac-chart", 0), "average CAC points drawn");
        assertEquals(marginals, console.drawnPoints("cac-chart", 1), "marginal CAC points drawn");
        List<Map<String, Object>> marks = console.markLines("cac-chart", 0);
        assertEquals(2, marks.size(), marks.toString());
        assertEquals(r.get("cacCeiling").doubleValue(), ((Number) marks.get(0).get("yAxis")).doubleValue());
        assertEquals(sat.get("saturatedSpendPerDay").doubleValue(), ((Number) marks.get(1).get("xAxis")).doubleValue());
        assertTrue(console.chartTexts("cac-chart").stream().anyMatch(t -> t.startsWith("saturation ")), console.chartTexts("cac-chart").toString());
        Map<String, String> summary = console.values("#cac-summary");
        assertShown(sat.get("saturatedSpendPerDay"), summary.get("saturatedSpendPerDay"), "saturation");
        assertShown(r.get("daysSampled"), summary.get("daysSampled"), "daysSampled");
        List<Map<String, String>> buckets = console.rows("cac-table");
        assertEquals(curve.size(), buckets.size());
        for (int i = 0; i < curve.size(); i++) {
            for (String f : List.of("spendPerDay", "days", "newCustomers", "avgCac", "marginalCac")) {
                assertShown(curve.get(i).get(f), buckets.get(i).get(f), "bucket " + i + " " + f);
            }
        }
        browser.fullPageScreenshot("console-demo-cac");
    }

    @Test
    void theRoasCardIsTheApiAnswer() {
        console.page("roas").set("roas-form", "level", "ad").set("roas-form", "entityId", ad)
                .set("roas-form", "from", FROM).set("roas-form", "to", END).set("roas-form", "basis", "sale_date");
        assertEquals("done", console.submit("roas-form", "roas-result"));
        JsonNode answer = api("/api/v1.0/attribution/roas?id=" + ad + "&level=ad" + RANGE + "&basis=sale_date").get("result");
        Map<String, String> shown = console.values("#roas-card");
        answer.fieldNames().forEachRemaining(f -> assertShown(answer.get(f), shown.get(f), f));
        assertTrue(answer.get("total_revenue").decimalValue().signum() > 0, answer.toString());
        browser.screenshot("console-demo-roas");
    }

    @Test
    void theAdAccountOverTimeIsTheApiAnswerAsAChart() {
        List<String> fields = List.of("name", "cost", "clicks", "leads", "sales", "total_revenue", "roas");
        console.page("adaccount").awaitOptions("adaccount-form", "adAccount").set("adaccount-form", "adAccount", adAccount)
                .set("adaccount-form", "from", FROM).set("adaccount-form", "to", END).set("adaccount-form", "grouping", "week")
                .metrics("adaccount-form", fields).set("adaccount-form", "chartMetric", "cost");
        assertEquals("done", console.submit("adaccount-form", "adaccount-result"));
        JsonNode answer = api("/api/v1.0/attribution/ad-account?attributionModel=last_click" + RANGE + "&fields=" + String.join(",", fields)
                + "&ids=" + adAccount + "&adLevelDateGroupingOption=week").get("result");
        assertTrue(answer.size() >= 9, "about nine weeks: " + answer.size());
        List<Map<String, String>> rows = console.rows("adaccount-table");
        assertTableIsAnswer(rows, answer, r -> r.get("id").asText(), r -> r.get("id"), c -> c);
        assertEquals(answer.size(), console.drawnPoints("adaccount-chart", 0), "one bar per bucket");
        assertCsvIsTable(console.csv("#adaccount-result a.csv"), console.columns("adaccount-table"), rows);
        browser.screenshot("console-demo-ad-account");
    }

    @Test
    void conversionPathsPageAndALeadsJourney() {
        console.page("paths").set("paths-form", "conversionType", "SALE").set("paths-form", "from", FROM)
                .set("paths-form", "to", END).set("paths-form", "pageSize", "20");
        assertEquals("done", console.submit("paths-form", "paths-result"));
        JsonNode first = api("/api/v1.0/conversion-paths?conversionType=SALE&fromDate=" + FROM + "&toDate=" + END
                + "&windowAttributionDaysRange=0&pageSize=20");
        List<Map<String, String>> rows = console.rows("paths-table");
        assertEquals(20, rows.size());
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(first.get("result").get(i).get("id").asText(), rows.get(i).get("id"));
            assertShown(first.get("result").get(i).get("price").get("price"), rows.get(i).get("price"), "price " + i);
        }
        // the next page is the API's next page
        assertNotNull(first.get("nextPageId").textValue());
        assertEquals("done", console.clickAndAwait("#paths-result button.next", "paths-result"));
        JsonNode second = api("/api/v1.0/conversion-paths?conversionType=SALE&fromDate=" + FROM + "&toDate=" + END
                + "&windowAttributionDaysRange=0&pageSize=20&pageId=" + enc(first.get("nextPageId").asText()));
        assertEquals(second.get("result").get(0).get("id").asText(), console.rows("paths-table").get(0).get("id"));
        browser.screenshot("console-demo-paths");

        String lead = second.get("result").get(0).get("leadId").asText();
        browser.visible("#paths-table a[href='#journey/" + lead + "']").click();
        assertEquals("done", console.awaitRun("journey-result", 0));
        JsonNode journey = api("/api/v1.0/leads/journey?ids=" + list(lead) + "&includeEvents=true").get("result").get(0);
        @SuppressWarnings("unchecked")
        List<String> types = (List<String>) browser.script("return [...document.querySelectorAll('ol.timeline li')].map(li => li.dataset.type)");
        assertEquals(journey.get("journey").size(), types.size());
        for (int i = 0; i < types.size(); i++) {
            assertEquals(journey.get("journey").get(i).get("type").asText(), types.get(i));
        }
        assertTrue(types.contains("sl") && types.contains("sale"), types.toString());
        assertEquals(List.of(), console.scriptErrors());
        browser.screenshot("console-demo-journey");
    }
}
