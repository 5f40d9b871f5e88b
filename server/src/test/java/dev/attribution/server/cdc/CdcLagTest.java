package dev.attribution.server.cdc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.cdc.CdcBridge;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.ZoneId;

import static dev.attribution.server.cdc.CdcTesting.sleep;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Lag behind the WAL head in /health and in Prometheus: near 0 when caught up, growing while the bridge is held. */
@MicronautTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CdcLagTest extends ApiTest {

    @Inject
    CdcBridge bridge;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC lag", null, ZoneId.of("UTC"), "USD");
    }

    private JsonNode cdcHealth() {
        Response r = get(null, "/health");
        return r.body().path("details").path("cdc");
    }

    /**
     * First, before anything asks /health: a Prometheus server only scrapes. Until 2026-11-27 the CDC gauges were
     * registered by the health indicator's constructor, i.e. at the first /health, and were missing before it.
     */
    @Test
    @Order(1)
    void theCdcSeriesAreExportedBeforeAnyHealthCheck() {
        String metrics = get(null, "/prometheus").raw();
        for (String series : new String[]{"cdc_lag_seconds ", "cdc_wal_behind_bytes ", "cdc_commit_lag_seconds ",
                "cdc_events_applied_total ", "cdc_role_active "}) {
            assertTrue(metrics.lines().anyMatch(l -> l.startsWith(series)), series + "exported: " + metrics);
        }
    }

    @Test
    @Order(2)
    void lagIsSmallWhenCaughtUpAndGrowsWhileTheBridgeIsStopped() {
        sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ('" + account + "', 'lag1', 'lag1@example.com', now(), now())");
        JsonNode caughtUp = ApiTest.await(() -> {
            JsonNode cdc = cdcHealth();
            return "STREAMING".equals(cdc.path("details").path("state").asText())
                    && cdc.path("details").path("lagMillis").asLong(-1) < 1_500 ? cdc : null;
        });
        assertEquals("UP", caughtUp.path("status").asText());
        assertTrue(caughtUp.path("details").has("walBytesBehind"), caughtUp.toString());
        assertTrue(caughtUp.path("details").has("commitLagMillis"), caughtUp.toString());

        bridge.stop();
        try {
            sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ('" + account + "', 'lag2', 'lag2@example.com', now(), now())");
            sleep(2_500);
            JsonNode behind = cdcHealth().path("details");
            assertTrue(behind.path("lagMillis").asLong() >= 2_000, behind.toString());
            assertTrue(behind.path("walBytesBehind").asLong() > 0, behind.toString());
            String metrics = get(null, "/prometheus").raw();
            String line = metrics.lines().filter(l -> l.startsWith("cdc_lag_seconds ")).findFirst().orElseThrow();
            assertTrue(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)) >= 2.0, line);
            for (String series : new String[]{"cdc_wal_behind_bytes ", "cdc_commit_lag_seconds ", "cdc_events_applied_total "}) {
                assertTrue(metrics.lines().anyMatch(l -> l.startsWith(series)), series + "exported");
            }
        } finally {
            bridge.start();
        }
        ApiTest.await(() -> cdcHealth().path("details").path("lagMillis").asLong(-1) < 1_500 ? true : null);
    }
}
