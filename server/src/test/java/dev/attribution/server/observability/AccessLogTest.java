package dev.attribution.server.observability;

import ch.qos.logback.classic.Level;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.requests.WriteWorker;
import dev.attribution.server.support.ApiTest;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24 point 2 (docs/operations.md "Access log"): one JSON line per answered request on {@code dev.attribution.access}
 * with method, route, status, duration, account and request id; the request id is the {@code request_id} of the
 * answer, and it is on every line the request causes — a line logged by the route on the blocking pool, and the
 * worker's line when it applies the write later on its own thread. Lines as logback.xml's LogstashEncoder writes them.
 */
@MicronautTest(transactional = false)
@Property(name = "test.log-probe", value = "true")
class AccessLogTest extends ApiTest {

    private static final String LEADS = "/api/v1.0/leads";

    @Test
    void oneJsonLinePerRequestAndItsIdOnEveryLineItCauses() {
        String accountId = RequestIds.next("acc_");
        directory.createAccount(accountId, "Access log", null, ZoneId.of("UTC"), "USD");
        directory.setRateOverride(accountId, 100_000, 1_000_000);
        String key = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(key), Roles.ALL, false);

        try (LogCapture logs = new LogCapture(Map.of(AccessLog.LOGGER, Level.INFO, WriteWorker.class.getName(), Level.DEBUG,
                LogProbeController.class.getName(), Level.INFO))) {
            Response read = get(key, LEADS + "?limit=1");
            assertEquals(200, read.status(), read.raw());
            assertEquals(401, get(null, LEADS).status());
            // the first write of a new key may be decided on the blocking pool (cache misses), the second on the event loop
            String first = sendWrite(key, "POST", LEADS, "{\"email\":\"access-1@example.com\"}");
            String second = sendWrite(key, "POST", LEADS, "{\"email\":\"access-2@example.com\"}");
            assertEquals(200, get(null, "/test-probe").status());

            JsonNode readLine = accessLine(logs, read.body().get("request_id").asText());
            assertFields(readLine, "GET", LEADS, 200, accountId);
            assertEquals("GET " + LEADS + " 200 " + readLine.get("duration_ms").asText() + " ms", readLine.get("message").asText());

            List<JsonNode> refused = access(logs).stream().filter(l -> l.path("status").asInt() == 401).toList();
            assertEquals(1, refused.size(), refused.toString());
            assertFields(refused.get(0), "GET", LEADS, 401, null);
            assertTrue(refused.get(0).path("request_id").asText().matches("[0-9a-f]+-[0-9a-f]{16}"), refused.toString());

            for (String write : List.of(first, second)) {
                assertFields(accessLine(logs, write), "POST", LEADS, 200, accountId);
                // applied later by a worker thread: its line carries the id of the request that sent the write
                JsonNode applied = await(() -> logs.lines().stream()
                        .filter(l -> l.path("logger_name").asText().equals(WriteWorker.class.getName()))
                        .filter(l -> write.equals(l.path("request_id").asText())).findFirst().orElse(null));
                assertEquals("write PROCESSED CREATE_LEAD of account " + accountId, applied.get("message").asText());
                assertTrue(applied.get("thread_name").asText().startsWith("write-worker-"), applied.toString());
            }

            JsonNode probeAccess = access(logs).stream().filter(l -> l.path("route").asText().equals("/test-probe")).findFirst().orElseThrow();
            JsonNode probeLine = logs.lines().stream().filter(l -> l.path("message").asText().equals("probe answered")).findFirst().orElseThrow();
            assertEquals(probeAccess.get("request_id").asText(), probeLine.path("request_id").asText(), probeLine.toString());
            assertNotEquals(readLine.get("thread_name").asText(), "", "thread named");

            // one line per request: the four requests to /leads, each id once
            assertEquals(4, access(logs).stream().filter(l -> l.path("route").asText().equals(LEADS)).count(), access(logs).toString());
            assertEquals(access(logs).size(), access(logs).stream().map(l -> l.get("request_id").asText()).distinct().count());
        }
    }

    private static List<JsonNode> access(LogCapture logs) {
        return logs.lines().stream().filter(l -> l.path("logger_name").asText().equals(AccessLog.LOGGER)).toList();
    }

    private static JsonNode accessLine(LogCapture logs, String requestId) {
        List<JsonNode> lines = access(logs).stream().filter(l -> requestId.equals(l.path("request_id").asText())).toList();
        assertEquals(1, lines.size(), "access lines of " + requestId + ": " + access(logs));
        return lines.get(0);
    }

    private static void assertFields(JsonNode line, String method, String route, int status, String account) {
        assertEquals(method, line.path("method").asText(), line.toString());
        assertEquals(route, line.path("route").asText(), line.toString());
        assertEquals(status, line.path("status").asInt(), line.toString());
        assertTrue(line.path("duration_ms").isNumber() && line.get("duration_ms").asDouble() >= 0, line.toString());
        assertTrue(line.has("account"), line.toString());
        assertEquals(account, line.get("account").isNull() ? null : line.get("account").asText(), line.toString());
        assertEquals("INFO", line.path("level").asText(), line.toString());
    }
}
