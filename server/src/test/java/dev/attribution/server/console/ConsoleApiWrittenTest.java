package dev.attribution.server.console;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.reports.ApiWrittenFixture;
import dev.attribution.server.support.BrowserTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.attribution.server.console.Console.assertCsvIsTable;
import static dev.attribution.server.console.Console.assertShown;
import static dev.attribution.server.console.Console.assertTableIsAnswer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The analyst console in headless Chromium on an account whose data this test wrote through HTTP
 * ({@link ApiWrittenFixture}: UTC, FACEBOOK ad account act1 with ads adA, adB, adC), and on an empty account: what each
 * page shows equals the API's answer for the same parameters, the CSV equals the table, the API's error messages are
 * shown as they are, an empty account breaks nothing, and the static page loads without a key.
 */
@MicronautTest(transactional = false)
class ConsoleApiWrittenTest extends BrowserTest {

    static final String FROM = "2026-11-01";
    static final String TO = "2026-11-20";

    String key;
    Console console;

    @BeforeAll
    void data() {
        key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
        console = new Console(browser, server.getURL().toString());
    }

    private JsonNode api(String pathAndQuery) {
        Response r = get(key, pathAndQuery);
        assertEquals(200, r.status(), r.raw());
        return r.body();
    }

    @Test
    void attributionOfAWholeAdAccountIsTheApiAnswerAndItsCsv() {
        console.useKey(key, null).page("attribution");
        assertEquals("ok", console.keyState());
        console.awaitOptions("attribution-form", "adAccount")
                .set("attribution-form", "level", "facebook_ad")
                .set("attribution-form", "scope", "account")
                .set("attribution-form", "adAccount", "act1")
                .set("attribution-form", "from", FROM)
                .set("attribution-form", "to", TO)
                .metrics("attribution-form", List.of("name", "clicks", "leads", "sales", "revenue", "total_revenue", "cost", "roas"));
        assertEquals("done", console.submit("attribution-form", "attribution-result"));

        JsonNode answer = api("/api/v1.0/attribution?attributionModel=last_click&level=facebook_ad&startDate=" + FROM + "T00:00:00&endDate="
                + TO + "T23:59:59&fields=name,clicks,leads,sales,revenue,total_revenue,cost,roas&ids=act1&isAdAccountId=true"
                + "&timeGroupingOption=source_link&pageSize=250").get("result");
        assertTrue(answer.size() >= 2, answer.toString());
        List<Map<String, String>> rows = console.rows("attribution-table");
        assertTableIsAnswer(rows, answer, r -> r.get("id").asText(), r -> r.get("id"), c -> c);

        // sorting by cost, descending: the table follows, and the CSV follows the table
        console.sortBy("attribution-table", "cost");
        console.sortBy("attribution-table", "cost");
        List<Map<String, String>> sorted = console.rows("attribution-table");
        for (int i = 1; i < sorted.size(); i++) {
            String a = sorted.get(i - 1).get("cost");
            String b = sorted.get(i).get("cost");
            assertTrue(b.isEmpty() || Double.parseDouble(a) >= Double.parseDouble(b), "descending cost: " + sorted);
        }
        assertCsvIsTable(console.csv("#attribution-result a.csv"), console.columns("attribution-table"), sorted);
        assertEquals(List.of(), console.scriptErrors());
        browser.screenshot("console-api-written-attribution");
    }

    @Test
    void roasCardShowsTheApiAnswerOnBothBases() {
        console.useKey(key, null).page("roas");
        for (String basis : List.of("click_date", "sale_date")) {
            console.set("roas-form", "level", "ad").set("roas-form", "entityId", "adA")
                    .set("roas-form", "from", FROM).set("roas-form", "to", TO).set("roas-form", "basis", basis);
            assertEquals("done", console.submit("roas-form", "roas-result"));
            JsonNode answer = api("/api/v1.0/attribution/roas?id=adA&level=ad&startDate=" + FROM + "T00:00:00&endDate=" + TO
                    + "T23:59:59&basis=" + basis).get("result");
            Map<String, String> shown = console.values("#roas-card");
            answer.fieldNames().forEachRemaining(f -> assertShown(answer.get(f), shown.get(f), basis + " " + f));
            assertTrue(answer.get("roas").isNumber(), answer.toString());
        }
        browser.screenshot("console-api-written-roas");
    }

    @Test
    void conversionPathsAndALeadsJourneyAreTheApiAnswers() {
        console.useKey(key, null).page("paths");
        console.set("paths-form", "conversionType", "SALE").set("paths-form", "from", "2026-10-01").set("paths-form", "to", TO);
        assertEquals("done", console.submit("paths-form", "paths-result"));
        JsonNode paths = api("/api/v1.0/conversion-paths?conversionType=SALE&fromDate=2026-10-01&toDate=" + TO
                + "&windowAttributionDaysRange=0&pageSize=50").get("result");
        assertEquals(5, paths.size(), paths.toString());
        List<Map<String, String>> rows = console.rows("paths-table");
        assertEquals(paths.size(), rows.size());
        for (int i = 0; i < paths.size(); i++) {
            JsonNode p = paths.get(i);
            Map<String, String> row = rows.get(i);
            assertEquals(p.get("id").asText(), row.get("id"));
            assertEquals(p.get("leadId").asText(), row.get("leadId"));
            assertEquals(p.get("creationDate").asText(), row.get("creationDate"));
            assertShown(p.get("price").get("price"), row.get("price"), "price of " + p.get("id"));
            List<String> touches = new ArrayList<>();
            // each touch as its source link id (or, for a touch without one, its tag or name)
            p.get("path").forEach(t -> touches.add(t.hasNonNull("sourceLinkId") ? t.get("sourceLinkId").asText()
                    : t.hasNonNull("tag") ? t.get("tag").asText() : t.path("name").asText()));
            assertEquals(String.join(" > ", touches), row.get("path"), "path of " + p.get("id"));
        }
        browser.screenshot("console-api-written-paths");

        // the lead of the first conversion: its link opens the journey page, which loads it at once
        String lead = paths.get(0).get("leadId").asText();
        int before = 0;
        browser.visible("#paths-table a[href='#journey/" + lead + "']").click();
        assertEquals("done", console.awaitRun("journey-result", before));
        JsonNode journey = api("/api/v1.0/leads/journey?ids=" + list(lead) + "&includeEvents=true").get("result").get(0);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> events = (List<Map<String, Object>>) browser.script(
                "return [...document.querySelectorAll('.journey[data-lead] ol.timeline li')].map(li => ({type: li.dataset.type, date: li.dataset.date}))");
        assertEquals(journey.get("journey").size(), events.size(), journey.get("journey").toString());
        assertFalse(events.isEmpty());
        for (int i = 0; i < events.size(); i++) {
            assertEquals(journey.get("journey").get(i).get("type").asText(), events.get(i).get("type"));
            assertEquals(journey.get("journey").get(i).get("date").asText(), events.get(i).get("date"));
        }
        Map<String, String> totals = console.values(".journey .totals");
        assertEquals(String.valueOf(journey.get("sales").size()), totals.get("sales"));
        assertEquals(String.valueOf(journey.get("calls").size()), totals.get("calls"));
        browser.screenshot("console-api-written-journey");
    }

    @Test
    void cacCurveShowsTheApiNotesAndPoints() {
        console.useKey(key, null).page("cac");
        console.set("cac-form", "level", "account").set("cac-form", "entityId", "act1")
                .set("cac-form", "from", FROM).set("cac-form", "to", TO).set("cac-form", "cacCeiling", "50");
        String state = console.submit("cac-form", "cac-result");
        JsonNode answer = api("/api/v1.0/attribution/marginal-cac-curve?id=act1&level=account&startDate=" + FROM + "T00:00:00&endDate="
                + TO + "T23:59:59&attributionModel=first_click&cacCeiling=50").get("result");
        assertEquals(answer.get("curve").isEmpty() ? "empty" : "done", state);
        @SuppressWarnings("unchecked")
        List<String> notes = (List<String>) browser.script("return [...document.querySelectorAll('#cac-notes li')].map(li => li.dataset.note)");
        List<String> apiNotes = new ArrayList<>();
        answer.get("notes").forEach(n -> apiNotes.add(n.asText()));
        assertEquals(apiNotes, notes);
        Map<String, String> summary = console.values("#cac-summary");
        assertShown(answer.get("daysSampled"), summary.get("daysSampled"), "daysSampled");
        assertShown(answer.get("cacCeiling"), summary.get("cacCeiling"), "cacCeiling");
        if (!answer.get("curve").isEmpty()) {
            long withAverage = 0;
            for (JsonNode b : answer.get("curve")) {
                withAverage += b.get("avgCac").isNull() ? 0 : 1;
            }
            assertEquals(withAverage, console.drawnPoints("cac-chart", 0));
        }
        browser.screenshot("console-api-written-cac");
    }

    @Test
    void theApisErrorMessagesAreShownAsTheyAre() {
        console.useKey(key, null).page("roas");
        console.set("roas-form", "level", "ad").set("roas-form", "entityId", "no-such-ad")
                .set("roas-form", "from", FROM).set("roas-form", "to", TO);
        assertEquals("error", console.submit("roas-form", "roas-result"));
        Response r = get(key, "/api/v1.0/attribution/roas?id=no-such-ad&level=ad&startDate=" + FROM + "T00:00:00&endDate=" + TO
                + "T23:59:59&basis=click_date");
        assertEquals(400, r.status(), r.raw());
        List<String> messages = new ArrayList<>();
        r.body().get("message").forEach(m -> messages.add(m.asText()));
        assertEquals(messages, console.errors("#roas-result"));

        // a wrong key: the API's 401 message, at the key form and on the page
        console.useKey("not-a-key", null);
        assertEquals("error", console.keyState());
        Response denied = get("not-a-key", "/api/v1.0/ad-accounts?pageSize=1");
        assertEquals(401, denied.status());
        assertEquals(List.of(denied.message()), console.errors("#key-state"));

        // an agency header naming an account this key may not act for: the API's 403 message (the header is sent)
        console.useKey(key, "acc_not_a_client");
        Response foreign = sendWithHeaders("GET", "/api/v1.0/ad-accounts?pageSize=1", null,
                Map.of("API-Key", key, "Accessible-Account-Id", "acc_not_a_client"));
        assertEquals(403, foreign.status(), foreign.raw());
        assertEquals("error", console.keyState());
        assertEquals(List.of(foreign.message()), console.errors("#key-state"));
        assertEquals(List.of(), console.scriptErrors());
        browser.screenshot("console-error");
    }

    @Test
    void anEmptyAccountBreaksNoPage() {
        String empty = newAccount("UTC", Roles.ALL);
        console.useKey(empty, null).page("attribution");
        assertEquals("ok", console.keyState());
        console.awaitOptions("attribution-form", "adAccount");
        assertEquals("", browser.script("return document.getElementById('attribution-form').elements.adAccount.value"));
        console.set("attribution-form", "ids", "123").set("attribution-form", "from", FROM).set("attribution-form", "to", TO);
        String state = console.submit("attribution-form", "attribution-result");
        assertTrue(state.equals("empty") || state.equals("error"), state);

        console.page("adaccount").awaitOptions("adaccount-form", "adAccount");
        assertEquals("error", console.submit("adaccount-form", "adaccount-result"));
        console.page("paths").set("paths-form", "from", FROM).set("paths-form", "to", TO);
        assertEquals("empty", console.submit("paths-form", "paths-result"));
        console.page("journey").set("journey-form", "emails", "nobody@x.test");
        assertEquals("empty", console.submit("journey-form", "journey-result"));
        console.page("cac").awaitOptions("cac-form", "pick");
        assertEquals("No ads in this account yet",
                browser.script("return document.getElementById('cac-form').elements.pick.options[0].textContent"));
        assertEquals(List.of(), console.scriptErrors());
        browser.screenshot("console-empty-account");
    }

    @Test
    void thePageLoadsWithoutAKeyAndAsksForOne() {
        browser.open(server.getURL() + "/console/#attribution");
        browser.script("sessionStorage.clear()");
        browser.open(server.getURL() + "/console/?fresh#cac");
        browser.visible("#need-key");
        assertEquals("none", console.keyState());
        assertEquals(List.of(), console.scriptErrors());
    }
}
