package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 point 2: while PostgreSQL or ClickHouse is unreachable, requests that need it are answered 503 in the
 * error envelope with {@code Retry-After} (not a hang, not a 500), {@code /health} names the store that is down, and
 * the server recovers by itself when the store is back: no restart, nothing accepted before the outage lost.
 *
 * <p>The stores are real servers of the test's own (started and stopped by {@code scripts/lib/servers.sh}), so
 * stopping them touches no other test. The server process's HTTP client gives up after 10 s: the 30 s hang of
 * Hikari's default connection timeout would fail the test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutageTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    Path dir;
    int pgPort;
    int chHttp;
    int chTcp;
    ServerProcesses servers;
    Server server;
    String key;

    @BeforeAll
    void ownStores() throws Exception {
        dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "outage-");
        pgPort = TestStack.freePort();
        chHttp = TestStack.freePort();
        chTcp = TestStack.freePort();
        startPostgres();
        startClickHouse();
        servers = ServerProcesses.over("outage", "jdbc:postgresql://127.0.0.1:" + pgPort + "/attribution");
        server = servers.start("a", Map.of("clickhouse.url", "http://127.0.0.1:" + chHttp, "clickhouse.database", "outage"));
        key = servers.createAccount("acc_outage");
    }

    @AfterAll
    void stopAll() throws Exception {
        if (servers != null) {
            servers.close();
        }
        TestStack.servers("discard", dir.toString());
    }

    @Test
    void postgresDownAnswers503WithRetryAfterAndRecoversWithoutRestart() throws Exception {
        String before = requestId(post("before@outage.test"));

        TestStack.servers("pg-stop", dir.resolve("pg").toString());
        for (HttpResponse<String> r : List.of(
                ServerProcesses.send(server, key, "POST", "/api/v1.0/leads", lead("during@outage.test")),
                ServerProcesses.send(server, key, "GET", "/api/v1.0/leads", null))) {
            assertUnavailable(r, "PostgreSQL");
        }
        JsonNode health = JSON.readTree(ServerProcesses.send(server, null, "GET", "/health", null).body());
        assertEquals("DOWN", health.path("status").asText());
        assertEquals("DOWN", health.path("details").path("jdbc").path("status").asText(), health.toString());
        assertEquals("UP", health.path("details").path("clickhouse").path("status").asText(), health.toString());

        startPostgres();
        String after = requestId(awaitAnswer(() -> post("after@outage.test")));
        awaitProcessed(before);
        awaitProcessed(after);
        assertEquals(2, servers.count("SELECT count(*) FROM leads WHERE email = ANY(?)",
                List.of("before@outage.test", "after@outage.test")));
        assertEquals(0, servers.count("SELECT count(*) FROM leads WHERE email = 'during@outage.test'"),
                "a write answered 503 was not accepted");
    }

    @Test
    void clickHouseDownAnswersReports503AndPostgresReadsStillWork() throws Exception {
        String report = "/api/v1.0/attribution?attributionModel=last_click&level=facebook_campaign&ids=23850"
                + "&startDate=2026-01-01T00:00:00&endDate=2026-01-02T00:00:00&fields=sales";
        assertEquals(200, awaitAnswer(() -> ServerProcesses.send(server, key, "GET", report, null)).statusCode());

        TestStack.servers("ch-stop", dir.resolve("ch").toString());
        assertUnavailable(ServerProcesses.send(server, key, "GET", report, null), "ClickHouse");
        assertEquals(200, ServerProcesses.send(server, key, "GET", "/api/v1.0/leads", null).statusCode());
        JsonNode health = JSON.readTree(ServerProcesses.send(server, null, "GET", "/health", null).body());
        assertEquals("DOWN", health.path("details").path("clickhouse").path("status").asText(), health.toString());

        startClickHouse();
        assertEquals(200, awaitAnswer(() -> ServerProcesses.send(server, key, "GET", report, null)).statusCode());
    }

    private static void assertUnavailable(HttpResponse<String> r, String store) throws Exception {
        assertEquals(503, r.statusCode(), r.body());
        assertEquals("5", r.headers().firstValue("Retry-After").orElse(null));
        JsonNode body = JSON.readTree(r.body());
        assertEquals("ERROR", body.path("result").asText());
        assertEquals("Service unavailable: " + store + " cannot be reached; retry after 5 seconds",
                body.path("message").path(0).asText());
    }

    private HttpResponse<String> post(String email) throws Exception {
        return ServerProcesses.send(server, key, "POST", "/api/v1.0/leads", lead(email));
    }

    private static String lead(String email) {
        return "{\"email\":\"" + email + "\"}";
    }

    private static String requestId(HttpResponse<String> r) throws Exception {
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).path("request_id").asText();
    }

    private interface Call {
        HttpResponse<String> send() throws Exception;
    }

    /** The first answer that is not a 503 (the store is back and the pool has reconnected), within 60 s. */
    private static HttpResponse<String> awaitAnswer(Call call) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        HttpResponse<String> r = call.send();
        while (r.statusCode() == 503 && Instant.now().isBefore(deadline)) {
            Thread.sleep(500);
            r = call.send();
        }
        return r;
    }

    private void awaitProcessed(String requestId) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        String state = "";
        while (Instant.now().isBefore(deadline)) {
            HttpResponse<String> r = ServerProcesses.send(server, key, "GET", "/api/v1.0/requests/" + requestId, null);
            state = r.statusCode() == 200 ? JSON.readTree(r.body()).path("result").path("status").asText() : r.body();
            if (state.equals("PROCESSED")) {
                return;
            }
            Thread.sleep(200);
        }
        assertTrue(false, "request " + requestId + " not PROCESSED: " + state);
    }

    private void startPostgres() throws Exception {
        TestStack.servers("pg-start", dir.resolve("pg").toString(), Integer.toString(pgPort));
    }

    private void startClickHouse() throws Exception {
        TestStack.servers("ch-start", dir.resolve("ch").toString(), Integer.toString(chHttp), Integer.toString(chTcp));
    }
}
