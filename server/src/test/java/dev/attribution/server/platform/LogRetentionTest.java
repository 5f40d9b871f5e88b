package dev.attribution.server.platform;

import dev.attribution.command.requests.LogRetention;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Retention of the request log and the outbox (issue 29 point 2, RetentionSettings: 14 days by default). The purge
 * runs as if 14 days had passed since the last write of account A: A's applied requests and its delivered events
 * go, a request still PENDING and A's opt-in events (the journey shows them) stay, and account B, which wrote after,
 * keeps everything. What a client sees: the status of a purged request is 404 and its Idempotency-Key is free again.
 */
@MicronautTest(transactional = false)
class LogRetentionTest extends ApiTest {

    @Inject
    LogRetention retention;

    @Inject
    DataSource dataSource;

    @Test
    void purgesWhatIsOlderThanTheWindowAndNothingElse() throws Exception {
        String a = newAccount();
        List<String> applied = new ArrayList<>();
        applied.add(acceptedId(sendWithHeaders("POST", "/api/v1.0/leads",
                "{\"email\":\"kept-optin@retention.test\",\"adOptimizationConsent\":\"GRANTED\"}",
                Map.of("API-Key", a, "Idempotency-Key", "lead-1"))));
        applied.add(acceptedId(post(a, "/api/v1.0/orders", """
                {"email":"buyer@retention.test","orderId":"ret-o1","items":[{"name":"Widget","price":25.00,"quantity":1}]}""")));
        for (String id : applied) {
            assertEquals("PROCESSED", awaitRequest(a, id).get("status").asText());
        }
        applied.add(acceptedId(post(a, "/api/v1.0/leads/tags", "{\"emails\":[\"buyer@retention.test\"],\"tags\":[\"vip\"]}")));
        assertEquals("PROCESSED", awaitRequest(a, applied.get(2)).get("status").asText());
        await(() -> count("SELECT count(*) FROM domain_events e JOIN api_keys k ON k.account_id = e.account_id "
                + "WHERE k.key_hash = ? AND NOT e.fanned_out", a) == 0 ? true : null);

        String pending;
        Instant lastOfA;
        try (Connection lock = connection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE leads IN EXCLUSIVE MODE");
            }
            pending = acceptedId(post(a, "/api/v1.0/leads", "{\"email\":\"pending@retention.test\"}"));
            lastOfA = Instant.now();
            String b = newAccount();
            String fresh = acceptedId(post(b, "/api/v1.0/custom-costs",
                    "{\"name\":\"Fresh\",\"cost\":1.00,\"frequency\":\"ONE_TIME\",\"startDate\":\"2026-11-01\",\"tags\":[\"@x\"]}"));

            LogRetention.Purged purged = retention.purge(lastOfA.plus(Duration.ofDays(14)));
            assertTrue(purged.requests() >= applied.size(), "A's applied requests purged: " + purged);
            assertTrue(purged.events() >= 1, "A's delivered events purged: " + purged);

            assertEquals(1, count("SELECT count(*) FROM write_requests WHERE id = ? AND status = 'PENDING'", pending),
                    "a PENDING request is never purged");
            assertEquals(200, get(b, "/api/v1.0/requests/" + fresh).status(), "B wrote after the cutoff: kept");
            lock.rollback();
        }
        for (String id : applied) {
            assertEquals(404, get(a, "/api/v1.0/requests/" + id).status(), "purged: " + id);
        }
        assertEquals("PROCESSED", awaitRequest(a, pending).get("status").asText(), "the pending write is applied afterwards");
        assertEquals(0, count("SELECT count(*) FROM domain_events e JOIN leads l ON l.account_id = e.account_id "
                + "AND l.id = e.subject_id WHERE l.email = ? AND e.event_type <> 'lead.opted.in'", "kept-optin@retention.test"));
        assertEquals(1, count("SELECT count(*) FROM domain_events e JOIN leads l ON l.account_id = e.account_id "
                + "AND l.id = e.subject_id WHERE l.email = ? AND e.event_type = 'lead.opted.in'", "kept-optin@retention.test"),
                "the opt-in the journey shows is kept");

        Response reused = sendWithHeaders("POST", "/api/v1.0/leads", "{\"email\":\"other@retention.test\"}",
                Map.of("API-Key", a, "Idempotency-Key", "lead-1"));
        assertEquals(200, reused.status(), "the key of a purged request is free again: " + reused.raw());
        assertTrue(!applied.contains(reused.body().get("request_id").asText()));
    }

    private static String acceptedId(Response r) {
        assertEquals(200, r.status(), r.raw());
        return r.body().get("request_id").asText();
    }

    private Connection connection() throws Exception {
        return DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
    }

    private int count(String sql, String value) {
        try (Connection c = connection(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, value.startsWith("atk_") || sql.contains("key_hash") ? dev.attribution.api.auth.ApiKeys.hash(value) : value);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (Exception e) {
            throw new AssertionError(sql, e);
        }
    }
}
