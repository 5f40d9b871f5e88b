package dev.attribution.server.spec;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 22, the read-side rules the first pass left open (items 16, 18, 20, 22), one test per rule, named after its
 * spec section, written as a client would through HTTP, asserting exact statuses, messages and shapes.
 */
@MicronautTest(transactional = false)
class SpecConformanceReadsTest extends ApiTest {

    String key;

    @BeforeAll
    void account() {
        key = newUnthrottledAccount("America/New_York", Roles.ALL);
    }

    // ---- 001 §4.0 Conventions: every response is JSON ----

    /**
     * 001 §4.0 (issue 22 item 18; docs/clients.md "Where the spec is silent"): the tracking script stays text/plain
     * for every caller that accepts text, the real n8n client included ({@code application/json, text/plain, *}{@code /*},
     * read as text); a caller accepting only JSON gets the snippet in the single-object envelope (it got 406).
     * {@code GET /domains} stays a bare JSON array: the n8n client maps the body itself.
     */
    @Test
    void s001_4_0_theTrackingScriptIsJsonToACallerThatAcceptsOnlyJson() {
        Response json = sendWithHeaders("GET", "/api/v1.0/tracking-script", null, Map.of("API-Key", key, "Accept", "application/json"));
        assertEquals(200, json.status(), json.raw());
        assertTrue(json.header("Content-Type").startsWith("application/json"), json.headers().toString());
        assertTrue(json.body().get("result").asText().contains("<script"), json.raw());
        assertTrue(json.body().hasNonNull("request_id"), json.raw());
        for (String accept : new String[] {"application/json, text/plain, */*", "text/plain", "*/*"}) {
            Response text = sendWithHeaders("GET", "/api/v1.0/tracking-script", null, Map.of("API-Key", key, "Accept", accept));
            assertEquals(200, text.status(), accept + ": " + text.raw());
            assertTrue(text.header("Content-Type").startsWith("text/plain"), accept + ": " + text.headers());
            assertTrue(text.raw().startsWith("<script") || text.raw().contains("<script"), text.raw());
        }
        Response domains = get(key, "/api/v1.0/domains");
        assertEquals(200, domains.status(), domains.raw());
        assertTrue(domains.body().isArray(), domains.raw());
    }

    // ---- 001 §4.1 GET /leads/aggregation ----

    /**
     * 001 §4.1, 000 §2.18 (issue 22 item 20): groups and totals are read by one statement, so they agree with each
     * other even while CDC writes: with every lead holding one stage and one tag, the groups plus
     * {@code remainingCount} never exceed {@code totalCount} in any answer polled during a burst of lead writes (two
     * reads answered, e.g., {@code groups: []}, {@code remainingCount: 2}, {@code totalCount: 1}), and equal it once
     * the writes have arrived. The race is timing-dependent; the code is structurally one statement.
     */
    @Test
    void s001_4_1_aggregationGroupsAndTotalsAgreeWhileLeadsAreWritten() throws Exception {
        String own = newUnthrottledAccount("UTC", Roles.ALL);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        Future<List<String>> writes = writer.submit(() -> {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                ids.add(sendWrite(own, "POST", "/api/v1.0/leads", "{\"email\":\"agg" + i + "@example.com\",\"stage\":\"S" + (i % 4)
                        + "\",\"tags\":[\"!t" + (i % 3) + "\"]}"));
            }
            return ids;
        });
        int polls = 0;
        while (!writes.isDone() || polls < 20) {
            check(get(own, "/api/v1.0/leads/aggregation?attribute=STAGE&groupsLimit=2"), false);
            check(get(own, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=1"), false);
            polls++;
        }
        awaitAllProcessed(own, writes.get());
        writer.shutdown();
        assertTrue(writer.awaitTermination(10, TimeUnit.SECONDS));
        awaitCdcCaughtUp();
        JsonNode done = check(get(own, "/api/v1.0/leads/aggregation?attribute=STAGE&groupsLimit=2"), true);
        assertEquals(60, done.get("totalCount").asLong(), done.toString());
        assertEquals(List.of("S0", "S1"), List.of(done.get("groups").get(0).get("key").asText(), done.get("groups").get(1).get("key").asText()));
        assertEquals(30, done.get("remainingCount").asLong(), done.toString());
        // TAG: each lead holds one tag here, so the same identity holds; the ranking is count first, then name
        JsonNode tags = get(own, "/api/v1.0/leads/aggregation?attribute=TAG&groupsLimit=1").body().get("result");
        assertEquals("!t0", tags.get("groups").get(0).get("key").asText(), tags.toString());
        assertEquals(20, tags.get("groups").get(0).get("count").asLong());
        assertEquals(40, tags.get("remainingCount").asLong());
        assertEquals(60, tags.get("totalCount").asLong());
        // a filter matching nothing: no groups, nothing remaining, no lead
        JsonNode none = get(own, "/api/v1.0/leads/aggregation?attribute=LAST_SOURCE_TAG&emails=" + list("nobody@example.com")).body().get("result");
        assertEquals(0, none.get("groups").size());
        assertEquals(0, none.get("remainingCount").asLong());
        assertEquals(0, none.get("totalCount").asLong());
    }

    /**
     * Each lead holds at most one key here, so one snapshot can never show more grouped leads than leads: groups plus
     * {@code remainingCount} are at most {@code totalCount} (a lead whose stage or tag has not reached ClickHouse yet
     * is counted in the total only), and exactly it once every write arrived ({@code settled}).
     */
    private static JsonNode check(Response r, boolean settled) {
        assertEquals(200, r.status(), r.raw());
        JsonNode result = r.body().get("result");
        long remaining = result.get("remainingCount").asLong();
        assertTrue(remaining >= 0, result.toString());
        long grouped = remaining;
        for (JsonNode g : result.get("groups")) {
            grouped += g.get("count").asLong();
        }
        if (settled) {
            assertEquals(result.get("totalCount").asLong(), grouped, "every lead holds one stage: " + result);
        } else {
            assertTrue(grouped <= result.get("totalCount").asLong(), "one snapshot: " + result);
        }
        return result;
    }

    // ---- 001 §4.5 GET /attribution/ad-account ----

    /**
     * 001 §4.5 (issue 22 item 16): an ad account the account does not have is 400 {@code Id not found at level
     * account: <id>}, as on ROAS and the marginal CAC curve (the other single-entity reports); it answered 200. A
     * known ad account with no activity in the range is one row of zeros, with no message.
     */
    @Test
    void s001_4_5_adAccountReportTellsAnUnknownIdFromNoActivity() {
        processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"Quiet Set\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"set-416\","
                + "\"accountId\":\"act-416\",\"campaignId\":\"camp-416\"}", "CREATE_SOURCE_LINK");
        awaitCdcCaughtUp();
        String q = "/api/v1.0/attribution/ad-account?attributionModel=last_click&startDate=2026-10-01&endDate=2026-10-02&fields=revenue,cost&ids=";
        assertBadRequest(get(key, q + "act-unknown-416"), "Id not found at level account: act-unknown-416");
        Response quiet = get(key, q + "act-416");
        assertEquals(200, quiet.status(), quiet.raw());
        assertFalse(quiet.body().has("message"), quiet.raw());
        JsonNode row = quiet.body().get("result").get(0);
        assertEquals("act-416", row.get("id").asText());
        assertEquals(0, row.get("revenue").decimalValue().signum(), row.toString());
        assertEquals(0, row.get("cost").decimalValue().signum(), row.toString());
    }

    // ---- 002 §7.2 rules 3 and 5: GET /tags/count takes fromDate / toDate ----

    /**
     * 002 §7.2 rules 3 and 5 (issue 22 item 22; docs/clients.md "Where the spec is silent"): tags/count is named among
     * the endpoints taking {@code fromDate}/{@code toDate} (4.7 lists only name and paging; it answered
     * {@code Unknown parameter: fromDate}). The pair is validated with the rules' messages and bounds when the leads
     * received the tag.
     */
    @Test
    void s002_7_2_tagsCountTakesTheDatePair() {
        String own = newUnthrottledAccount("America/New_York", Roles.ALL);
        processed(own, "POST", "/api/v1.0/leads", "{\"email\":\"early72@example.com\",\"tags\":[\"!count-72\"],"
                + "\"tagsDate\":\"2026-10-05T12:00:00Z\"}", "CREATE_LEAD");
        processed(own, "POST", "/api/v1.0/leads", "{\"email\":\"late72@example.com\",\"tags\":[\"!count-72\"],"
                + "\"tagsDate\":\"2026-10-20T12:00:00Z\"}", "CREATE_LEAD");
        String path = "/api/v1.0/tags/count?name=" + enc("!count-72");
        assertEquals(2, get(own, path).body().get("result").get(0).get("amount").asLong());
        Response october = get(own, path + "&fromDate=2026-10-01&toDate=2026-10-10");
        assertEquals(200, october.status(), october.raw());
        assertEquals(1, october.body().get("result").get(0).get("amount").asLong(), october.raw());
        assertEquals(0, get(own, path + "&fromDate=2026-09-01&toDate=2026-09-30").body().get("result").size());
        assertBadRequest(get(own, path + "&fromDate=2026-10-10&toDate=2026-10-01"), "fromDate cannot be later than toDate");
        LocalDate next = LocalDate.now(ZoneId.of("America/New_York")).plusMonths(1).withDayOfMonth(1);
        assertBadRequest(get(own, path + "&toDate=" + next), "'toDate' cannot be in a future month: " + next);
        assertBadRequest(get(own, path + "&fromDate=10/01/2026"), "Invalid date format.");
    }
}
