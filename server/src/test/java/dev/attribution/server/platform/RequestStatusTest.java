package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.requests.WriteWorker;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 2.20, 4.13: the request status resource and its envelope, through PENDING, PROCESSED and FAILED. */
@MicronautTest(transactional = false)
class RequestStatusTest extends PlatformTest {

    static final String UTC = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";

    @Inject
    WriteWorker worker;

    @Test
    void acceptedWriteIsPendingThenProcessedWithItsResult() {
        Acct a = account();
        Response accepted;
        worker.stop();
        try {
            accepted = post(a.key(), "/api/v1.0/leads", lead("status@example.com"));
            assertEquals(200, accepted.status(), accepted.raw());
            assertEquals("OK", accepted.body().get("result").asText());
            assertEquals(2, accepted.body().size(), "only request_id and result: " + accepted.raw());
            String id = accepted.body().get("request_id").asText();

            Response pending = get(a.key(), "/api/v1.0/requests/" + id);
            assertEquals(200, pending.status());
            assertTrue(pending.body().get("request_id").isTextual(), "GET envelope carries its own request_id");
            JsonNode s = pending.body().get("result");
            assertEquals(id, s.get("requestId").asText());
            assertEquals("PENDING", s.get("status").asText());
            assertEquals("CREATE_LEAD", s.get("eventType").asText());
            assertTrue(s.get("createdAt").asText().matches(UTC), s.toString());
            assertFalse(s.has("processedAt"), s.toString());
            assertFalse(s.has("errorMessage"), s.toString());
            assertFalse(s.has("result"), s.toString());
        } finally {
            worker.start();
        }
        JsonNode done = awaitRequest(a.key(), accepted.body().get("request_id").asText());
        assertEquals("PROCESSED", done.get("status").asText());
        assertTrue(done.get("processedAt").asText().matches(UTC), done.toString());
        assertTrue(done.get("processedAt").asText().compareTo(done.get("createdAt").asText()) >= 0);
        assertFalse(done.has("errorMessage"), done.toString());
        JsonNode lead = done.get("result");
        assertEquals("status@example.com", lead.get("email").asText());
        JsonNode listed = get(a.key(), "/api/v1.0/leads?emails=" + list("status@example.com")).body().get("result").get(0);
        java.util.Set<String> listedFields = new java.util.TreeSet<>();
        listed.fieldNames().forEachRemaining(listedFields::add);
        java.util.Set<String> resultFields = new java.util.TreeSet<>();
        lead.fieldNames().forEachRemaining(resultFields::add);
        assertEquals(listedFields, resultFields, "result has the shape of an item of GET /leads");
        assertEquals(listed.get("id"), lead.get("id"));
        assertEquals(listed.get("creationDate"), lead.get("creationDate"), "dates in the account zone, as the GET renders them");
    }

    @Test
    void failedRequestCarriesErrorMessageAndNoResult() throws Exception {
        Acct a = account();
        String id = "req-failing-" + System.nanoTime();
        try (Connection c = TestStack.get().connect();
             PreparedStatement ps = c.prepareStatement(
                     "INSERT INTO write_requests (id, account_id, event_type, lane, payload) VALUES (?, ?, 'NO_SUCH_TYPE', 0, '{}')")) {
            ps.setString(1, id);
            ps.setString(2, a.id());
            ps.executeUpdate();
            c.createStatement().execute("NOTIFY write_requests");
        }
        JsonNode s = awaitRequest(a.key(), id);
        assertEquals("FAILED", s.get("status").asText());
        assertEquals("No handler for NO_SUCH_TYPE", s.get("errorMessage").asText());
        assertTrue(s.get("processedAt").asText().matches(UTC), s.toString());
        assertFalse(s.has("result"), s.toString());
    }

    @Test
    void unknownOrForeignRequestIs404() {
        Acct a = account();
        Acct b = account();
        String id = post(a.key(), "/api/v1.0/leads", lead("mine@example.com")).body().get("request_id").asText();
        assertError(get(b.key(), "/api/v1.0/requests/" + id), 404, "Request not found: " + id);
        assertError(get(a.key(), "/api/v1.0/requests/nope"), 404, "Request not found: nope");
    }

    @Test
    void writesAreAppliedInOrderPerLead() {
        Acct a = account();
        String first = post(a.key(), "/api/v1.0/leads", "{\"email\":\"order@example.com\",\"firstName\":\"One\"}")
                .body().get("request_id").asText();
        String second = post(a.key(), "/api/v1.0/leads", "{\"email\":\"order@example.com\",\"firstName\":\"Two\"}")
                .body().get("request_id").asText();
        JsonNode s1 = awaitRequest(a.key(), first);
        JsonNode s2 = awaitRequest(a.key(), second);
        assertTrue(s1.get("processedAt").asText().compareTo(s2.get("processedAt").asText()) <= 0);
        JsonNode lead = get(a.key(), "/api/v1.0/leads?emails=" + list("order@example.com")).body().get("result").get(0);
        assertEquals("Two", lead.get("firstName").asText());
    }
}
