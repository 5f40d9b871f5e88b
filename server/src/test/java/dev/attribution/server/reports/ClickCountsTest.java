package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.WriteRequest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The leads and clicks of GET /attribution are those of the current clicks, though the report counts them over every
 * version of the clicks (ClicksByAd.assignedCounts): a click connected to its lead after it was written (one version
 * without a lead, one with), a click retagged (PUT /sources: versions of the same lead), a lead deleted with its
 * clicks; and, written into PostgreSQL by hand since the API never does it, a click whose lead changes from one lead to
 * another, which the report must count by its current lead only (the check that sends it back to the per-click dedup).
 */
@MicronautTest(transactional = false)
class ClickCountsTest extends ApiTest {

    private static final String REPORT = "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-18"
            + "&level=facebook_ad&ids=" + enc("\"adA\",\"adB\",\"adC\"") + "&fields=leads,clicks";

    private static String click(String who, String ad, String date) {
        return "{\"referrerUrl\":\"https://shop.test/landing\"," + who + ",\"date\":\"" + date + "\",\"integrationType\":\"FACEBOOK\","
                + "\"adSourceId\":\"set1\",\"adspendAdId\":\"" + ad + "\",\"sourceLinkTag\":\"@counted\"}";
    }

    private Map<String, long[]> counts(String key) {
        Response r = get(key, REPORT);
        assertEquals(200, r.status(), r.raw());
        Map<String, long[]> out = new HashMap<>();
        r.body().get("result").forEach(row -> out.put(row.get("id").asText(), new long[]{row.get("leads").asLong(), row.get("clicks").asLong()}));
        return out;
    }

    /** A requested ad with nothing in the range (no click, no sale, no spend) has no row: 0 and 0. */
    private static void assertCounts(Map<String, long[]> got, String ad, long leads, long clicks) {
        long[] n = got.getOrDefault(ad, new long[2]);
        assertEquals(leads + " leads, " + clicks + " clicks", n[0] + " leads, " + n[1] + " clicks", ad);
    }

    @Test
    void leadsAndClicksAreTheCurrentClicksWhateverTheirVersions() {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(List.of(
                List.of(new WriteRequest(key, "POST", "/api/v1.0/sources", "{\"name\":\"Counted\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"a@counts.test\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"b@counts.test\"}")),
                List.of(new WriteRequest(key, "POST", "/api/v1.0/clicks", click("\"email\":\"a@counts.test\"", "adA", "2026-11-02T10:00:00Z")),
                        new WriteRequest(key, "POST", "/api/v1.0/clicks", click("\"email\":\"a@counts.test\"", "adA", "2026-11-03T10:00:00Z")),
                        // unassigned: no lead until c@ arrives with its ip
                        new WriteRequest(key, "POST", "/api/v1.0/clicks", click("\"ip\":\"9.9.9.19\"", "adA", "2026-11-04T10:00:00Z")),
                        new WriteRequest(key, "POST", "/api/v1.0/clicks", click("\"email\":\"b@counts.test\"", "adB", "2026-11-09T10:00:00Z")),
                        new WriteRequest(key, "POST", "/api/v1.0/clicks", click("\"email\":\"b@counts.test\"", "adC", "2026-11-10T10:00:00Z"))),
                List.of(new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"c@counts.test\",\"leadIps\":[\"9.9.9.19\"]}"),
                        new WriteRequest(key, "PUT", "/api/v1.0/sources/" + enc("@counted"), "{\"tag\":\"@counted-again\"}"))));
        Map<String, long[]> before = counts(key);
        assertCounts(before, "adA", 2, 3);
        assertCounts(before, "adB", 1, 1);
        assertCounts(before, "adC", 1, 1);

        // b@ deleted: its clicks go with it
        writePhases(List.of(List.of(new WriteRequest(key, "DELETE", "/api/v1.0/leads?email=b@counts.test", null))));
        Map<String, long[]> deleted = counts(key);
        assertCounts(deleted, "adA", 2, 3);
        assertCounts(deleted, "adB", 0, 0);
        assertCounts(deleted, "adC", 0, 0);

        // c@'s click handed to a@ by a writer outside the API: adA has one lead left, still three clicks
        String acc = get(key, "/api/v1.0/user-info").body().get("result").get("accountId").asText();
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("UPDATE clicks SET lead_id = (SELECT id FROM leads WHERE account_id = '" + acc
                    + "' AND email = 'a@counts.test') WHERE account_id = '" + acc + "' AND ip = '9.9.9.19'"));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        awaitCdcCaughtUp();
        assertCounts(counts(key), "adA", 1, 3);
    }
}
