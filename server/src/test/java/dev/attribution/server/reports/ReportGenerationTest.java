package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * POST /reports/generate and GET /reports/poll/{externalId} (docs/reports.md): a job's result equals GET /attribution's
 * answer for the same parameters on the same data; CSV; the same 400 texts as GET /attribution; 404s; a job survives
 * a worker restart and a dead node. The data (written through the API), the worker and a report's generate-poll-await
 * are {@link ReportJobsApiTest}.
 */
@MicronautTest(transactional = false)
class ReportGenerationTest extends ReportJobsApiTest {

    @Test
    void resultEqualsTheSynchronousAttributionAnswer() {
        for (String model : List.of("last_click", "first_click")) {
            for (String level : List.of("facebook_ad", "facebook_adset")) {
                List<String> ids = level.equals("facebook_ad") ? List.of("ad1", "ad2", "ad3", "nope") : List.of("set1", "set2", "nope");
                Map<String, Object> p = params(model, level, ids);
                p.put("sourceConfiguration", "all_sources");
                Response sync = attribution(p);
                assertEquals(200, sync.status(), sync.raw());
                assertTrue(sync.body().get("result").size() >= 2, sync.raw());
                String id = generated(p);
                JsonNode job = awaitDone(id);
                String label = model + " " + level;
                assertEquals(sync.body().get("result"), job.get("rows"), label);
                // money as GET /attribution writes it, two decimals
                if (level.equals("facebook_ad")) {
                    assertTrue(sync.raw().contains("\"cost\":10.00"), sync.raw());
                    String raw = get(key, "/api/v1.0/reports/poll/" + id).raw();
                    assertTrue(raw.contains("\"cost\":10.00"), raw);
                }
                assertEquals(sync.body().get("message"), job.get("message"), label);
                assertEquals(100, job.get("progress").asInt(), label);
                assertEquals(ids.size(), job.get("partsDone").asInt(), label);
                assertEquals(ids.size(), job.get("partsTotal").asInt(), label);
                assertEquals("attribution", job.get("reportType").asText());
                assertFalse(job.get("expiresAt").isNull(), label);
            }
        }
    }

    /** Scientific and the options go through the same engine: per id, and as one part when buckets span the ids. */
    @Test
    void scientificWithOptionsEqualsTheSynchronousAnswer() {
        for (String grouping : List.of("source_link", "week")) {
            List<String> ids = List.of("ad1", "ad2", "ad3", "nope");
            Map<String, Object> p = params("scientific", "facebook_ad", ids);
            p.put("sourceConfiguration", "all_sources");
            p.put("timeGroupingOption", grouping);
            p.put("dayOfAttribution", true);
            p.put("excludeHardCosts", true);
            Response sync = attribution(p);
            assertEquals(200, sync.status(), sync.raw());
            assertTrue(sync.body().get("result").size() >= 1, sync.raw());
            JsonNode job = awaitDone(generated(p));
            assertEquals(sync.body().get("result"), job.get("rows"), grouping);
            assertEquals(sync.body().get("message"), job.get("message"), grouping);
            assertEquals(grouping.equals("week") ? 1 : ids.size(), job.get("partsTotal").asInt(), grouping);
        }
    }

    @Test
    void adAccountReportHoldsEveryPage() {
        Map<String, Object> p = params("last_click", "facebook_ad", List.of("acct"));
        p.put("isAdAccountId", true);
        p.put("pageSize", 1);
        // the synchronous answer pages the rows one at a time
        List<JsonNode> pages = new java.util.ArrayList<>();
        String pageId = null;
        do {
            Map<String, Object> q = new LinkedHashMap<>(p);
            if (pageId != null) {
                q.put("pageId", pageId);
            }
            Response r = attribution(q);
            assertEquals(200, r.status(), r.raw());
            r.body().get("result").forEach(pages::add);
            pageId = r.body().hasNonNull("nextPageId") ? r.body().get("nextPageId").asText() : null;
        } while (pageId != null);
        // the three ads and the two source entries (set1, set2: each source's own row at ad level, named after it,
        // docs/attribution-models.md "The ad hierarchy the API writes"), zeros included
        assertEquals(5, pages.size(), pages.toString());
        // (in order of first creation, then id: sources and clicks written within one second tie, so the order is not asserted)
        assertEquals(List.of("ad1", "ad2", "ad3", "set1", "set2"), pages.stream().map(r -> r.get("id").asText()).sorted().toList());
        assertEquals("Set, one", pages.stream().filter(r -> r.get("id").asText().equals("set1")).findFirst().orElseThrow().get("name").asText());
        JsonNode job = awaitDone(generated(p));
        assertEquals(JsonBody.mapper().valueToTree(pages), job.get("rows"));
    }

    @Test
    void generateAnswersAPendingJobWithProgress() {
        String id = generated(params("last_click", "facebook_ad", List.of("ad1")));
        assertTrue(id.startsWith("rep_"), id);
        JsonNode job = poll(id);
        assertTrue(List.of("PENDING", "RUNNING", "DONE").contains(job.get("status").asText()), job.toString());
        assertTrue(job.has("progress"), job.toString());
        awaitDone(id);
    }

    @Test
    void progressIsSavedPerPartAndAJobSurvivesAWorkerRestartAndADeadNode() throws Exception {
        Map<String, Object> p = params("last_click", "facebook_ad", List.of("ad1", "ad2", "ad3", "nope"));
        worker.stop();
        String id;
        try {
            id = generated(p);
            JsonNode pending = poll(id);
            assertEquals("PENDING", pending.get("status").asText());
            assertEquals(0, pending.get("progress").asInt());
            assertNull(pending.get("rows"));
            // a node claims the job, computes one id of four, and dies with its lease held
            assertTrue(worker.work("dead-node", 1));
            JsonNode running = poll(id);
            assertEquals("RUNNING", running.get("status").asText());
            assertEquals(25, running.get("progress").asInt());
            assertEquals(1, running.get("partsDone").asInt());
            // CSV asked for before the end: the JSON status
            Response early = get(key, "/api/v1.0/reports/poll/" + id + "?format=csv");
            assertEquals("RUNNING", early.body().get("result").get("status").asText(), early.raw());
            // the lease still holds: nobody else takes the job
            assertFalse(worker.work("other-node", Integer.MAX_VALUE));
            assertEquals(1, sql("UPDATE report_jobs SET lease_until = now() - interval '1 second' WHERE id = ?", id)); // the dead node's lease runs out
        } finally {
            worker.start();
        }
        JsonNode done = awaitDone(id);
        Response sync = attribution(p);
        assertEquals(sync.body().get("result"), done.get("rows"));
        assertEquals(sync.body().get("message"), done.get("message"));
    }

    @Test
    void aJobClaimedTooOftenFails() {
        worker.stop();
        String id;
        try {
            id = generated(params("last_click", "facebook_ad", List.of("ad1")));
            sql("UPDATE report_jobs SET attempts = 3 WHERE id = ?", id); // three nodes died running it
        } finally {
            worker.start();
        }
        JsonNode failed = await(() -> {
            JsonNode job = poll(id);
            return job.get("status").asText().equals("FAILED") ? job : null;
        });
        assertEquals("The report could not be generated", failed.get("message").get(0).asText());
        assertNull(failed.get("rows"));
    }

    @Test
    void expiredResultsAreNotFoundAndDeleted() {
        String id = generated(params("last_click", "facebook_ad", List.of("ad1")));
        awaitDone(id);
        assertEquals(1, sql("UPDATE report_jobs SET expires_at = now() - interval '1 second' WHERE id = ?", id));
        Response gone = get(key, "/api/v1.0/reports/poll/" + id);
        assertEquals(404, gone.status());
        assertEquals("Report not found: " + id, gone.message());
        worker.stop();
        worker.start(); // a starting worker sweeps expired jobs first
        await(() -> sql("UPDATE report_jobs SET attempts = attempts WHERE id = ?", id) == 0 ? true : null);
    }

    /** Two nodes' workers pulling from one table at once: every job is claimed exactly once and finished. */
    @Test
    void concurrentWorkersNeverClaimOneJobTwice() throws Exception {
        worker.stop();
        List<String> ids = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                ids.add(generated(params("last_click", "facebook_ad", List.of("ad1", "ad2"))));
            }
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(3);
            List<java.util.concurrent.Future<Integer>> nodes = new java.util.ArrayList<>();
            for (int n = 0; n < 3; n++) {
                String owner = "node-" + n;
                nodes.add(pool.submit(() -> {
                    int claimed = 0;
                    while (worker.work(owner, Integer.MAX_VALUE)) {
                        claimed++;
                    }
                    return claimed;
                }));
            }
            int total = 0;
            for (java.util.concurrent.Future<Integer> f : nodes) {
                total += f.get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertEquals(6, total);
            for (String id : ids) {
                assertEquals(1, sql("UPDATE report_jobs SET attempts = attempts WHERE id = ? AND attempts = 1 AND status = 'DONE'", id), id);
            }
        } finally {
            worker.start();
        }
    }

    @Test
    void csvOnRequest() {
        Map<String, Object> p = params("last_click", "facebook_ad", List.of("ad1", "ad2", "ad3"));
        p.put("fields", List.of("name", "revenue", "roas", "sales"));
        String id = generated(p);
        JsonNode job = awaitDone(id);
        Response csv = get(key, "/api/v1.0/reports/poll/" + id + "?format=csv");
        assertEquals(200, csv.status(), csv.raw());
        assertTrue(csv.header("Content-Type").startsWith("text/csv"), csv.header("Content-Type"));
        String[] lines = csv.raw().split("\r\n");
        assertEquals("id,name,revenue,roas,sales", lines[0]);
        assertEquals(job.get("rows").size() + 1, lines.length, csv.raw());
        // the API names no ad: an unnamed ad's name is its id (as GET /attribution names it)
        assertEquals("ad1,ad1,120.50,15.08,3", lines[1]);
        assertEquals("ad2,ad2,0.00,0.00,0", lines[2]);
        assertEquals(job.get("rows").get(2).get("id").asText(), lines[3].substring(0, 3));
        Response byAccept = sendWithHeaders("GET", "/api/v1.0/reports/poll/" + id, null, Map.of("API-Key", key, "Accept", "text/csv"));
        assertEquals(csv.raw(), byAccept.raw());
        Response json = get(key, "/api/v1.0/reports/poll/" + id + "?format=json");
        assertEquals("DONE", json.body().get("result").get("status").asText());
        // a name holding a comma is quoted: the ad set takes its source's name. set1 = ad1 + ad2: revenue 100.50 + 20.00,
        // roas (120.50 + 30.25) / (10.00 + 5.55) = 9.69, 3 sales; set2 = ad3: 99.99 / 7.77 = 12.87
        Map<String, Object> sets = params("last_click", "facebook_adset", List.of("set1", "set2"));
        sets.put("fields", List.of("name", "revenue", "roas", "sales"));
        String setsId = generated(sets);
        awaitDone(setsId);
        List<String> setLines = List.of(get(key, "/api/v1.0/reports/poll/" + setsId + "?format=csv").raw().split("\r\n"));
        assertEquals(List.of("id,name,revenue,roas,sales", "set1,\"Set, one\",120.50,9.69,3", "set2,Set two,99.99,12.87,1"),
                setLines.stream().sorted().toList(), setLines.toString());
        Response bad = get(key, "/api/v1.0/reports/poll/" + id + "?format=xml");
        assertEquals(400, bad.status());
        assertEquals("Invalid format 'xml'. Accepted values: json, csv", bad.message());
    }

    /** Each refused configuration gets GET /attribution's status and text for the same parameters. */
    @Test
    void validationErrorsAreThoseOfGetAttribution() {
        List<Map<String, Object>> cases = new java.util.ArrayList<>();
        cases.add(with("attributionModel", "linear"));
        cases.add(with("level", "myspace_ad"));
        cases.add(with("fields", List.of("bogus")));
        cases.add(with("sourceConfiguration", "paid"));
        cases.add(with("windowAttributionDaysRange", 366));
        cases.add(with("timeGroupingOption", "quarter"));
        cases.add(with("startDate", "2026-11-01T00:00:00+01:00"));
        cases.add(with("startDate", "2026-11-01T00:00:00.500"));
        cases.add(with("startDate", "yesterday"));
        cases.add(with("currency", "eur"));
        Map<String, Object> noIds = params("last_click", "facebook_ad", List.of("ad1"));
        noIds.remove("ids");
        cases.add(noIds);
        Map<String, Object> noModel = params("last_click", "facebook_ad", List.of("ad1"));
        noModel.remove("attributionModel");
        cases.add(noModel);
        List<String> many = new java.util.ArrayList<>();
        for (int i = 0; i < 51; i++) {
            many.add("x" + i);
        }
        cases.add(with("ids", many));
        for (Map<String, Object> c : cases) {
            Response sync = attribution(c);
            Response async = generate(c);
            assertEquals(400, sync.status(), c + " " + sync.raw());
            assertEquals(400, async.status(), c + " " + async.raw());
            assertEquals(sync.message(), async.message(), c.toString());
            assertEquals("ERROR", async.body().get("result").asText());
        }
    }

    private static Map<String, Object> with(String name, Object value) {
        Map<String, Object> p = params("last_click", "facebook_ad", List.of("ad1"));
        p.put(name, value);
        return p;
    }

    @Test
    void reportGenerationDateRules() {
        bad(with("endDate", "2026-11-04"), "'endDate' cannot be before 'startDate'");
        bad(with("endDate", "2099-01-01"), "'endDate' cannot be in a future month: 2099-01-01");
        Map<String, Object> both = with("endDate", "2099-02-01");
        both.put("startDate", "2099-01-01");
        bad(both, "'startDate' cannot be in a future month: 2099-01-01");
        LocalDate tomorrow = LocalDate.now(ZoneOffset.UTC).plusDays(1);
        if (tomorrow.getMonth() == LocalDate.now(ZoneOffset.UTC).getMonth()) {
            // later this month: not a future month, but in the future for an attribution report
            bad(with("endDate", tomorrow.toString()), "startDate or endDate cannot be in the future.");
        }
    }

    @Test
    void malformedBodies() {
        assertBad(post(key, "/api/v1.0/reports/generate", "{}"), "Missing required field: configuration");
        assertBad(post(key, "/api/v1.0/reports/generate", "{\"configuration\":{},\"x\":1}"), "Unknown field: x");
        assertBad(post(key, "/api/v1.0/reports/generate", "{\"configuration\":[]}"), "configuration must be an object");
        Map<String, Object> type = with("reportType", "roas");
        bad(type, "Invalid reportType 'roas'. Accepted values: attribution");
        bad(with("ids", Map.of("a", "b")), "ids must be a string, a number, a boolean or an array of strings");
    }

    private void bad(Map<String, Object> configuration, String message) {
        assertBad(generate(configuration), message);
    }

    private static void assertBad(Response r, String message) {
        assertEquals(400, r.status(), r.raw());
        assertEquals(message, r.message());
    }

    @Test
    void unknownAndForeignJobsAreNotFound() {
        Response unknown = get(key, "/api/v1.0/reports/poll/rep_nope");
        assertEquals(404, unknown.status());
        assertEquals("ERROR", unknown.body().get("result").asText());
        assertEquals("Report not found: rep_nope", unknown.message());
        String id = generated(params("last_click", "facebook_ad", List.of("ad1")));
        String other = newAccount("UTC", Roles.ALL);
        Response foreign = get(other, "/api/v1.0/reports/poll/" + id);
        assertEquals(404, foreign.status());
        assertEquals("Report not found: " + id, foreign.message());
        awaitDone(id);
    }

    @Test
    void bothEndpointsNeedTheGetAttributionRole() {
        String other = newAccount("UTC", List.of(Roles.GET_LEADS));
        Response g = post(other, "/api/v1.0/reports/generate", "{\"configuration\":{}}");
        assertEquals(403, g.status());
        assertEquals("Forbidden, missing api key roles | Get Attribution", g.message());
        assertEquals(403, get(other, "/api/v1.0/reports/poll/rep_x").status());
        assertTrue(get(key, "/api/v1.0/reports/poll/rep_x").header("X-RateLimit-Limit") != null);
    }
}
