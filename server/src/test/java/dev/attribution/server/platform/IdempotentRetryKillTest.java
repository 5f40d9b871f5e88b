package dev.attribution.server.platform;

import dev.attribution.api.JsonBody;
import dev.attribution.server.support.ServerProcesses;
import dev.attribution.server.support.ServerProcesses.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 29 point 5: a client loses its connection because the server was killed (SIGKILL) after accepting its write
 * and before it read the answer; it retries the same request with the same Idempotency-Key on the restarted server and
 * the write is applied exactly once. Calls are the example because they are not naturally idempotent: without a key,
 * the retry would be a second call.
 *
 * <p>One write is made certain to be in that window: the client sends it without waiting for the answer, the test
 * waits until the request log holds its key, then kills the process — the client never reads an answer. Eight clients
 * writing during the kill add whatever other outcomes the timing gives (answered, refused connection, cut mid-answer);
 * each retries every write it has no answer for.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IdempotentRetryKillTest {

    private static final String EMAIL = "retried@kill.test";

    ServerProcesses servers;
    String key;

    @BeforeAll
    void ownDatabase() throws Exception {
        servers = new ServerProcesses("idemkill");
    }

    @AfterAll
    void killLeftovers() {
        servers.close();
    }

    @Test
    void aWriteAcceptedBeforeTheKillAndRetriedAfterItIsAppliedOnce() throws Exception {
        Server first = servers.start("a", Map.of());
        key = servers.createAccount("acc_idemkill");

        Map<String, String> answered = new ConcurrentHashMap<>();
        List<String> keys = new ArrayList<>();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                for (int i = 0; i < 40; i++) {
                    String k = "c" + client + "-" + i;
                    synchronized (keys) {
                        keys.add(k);
                    }
                    try {
                        answered.put(k, requestId(call(first, k)));
                    } catch (Exception | AssertionError dead) {
                        return;
                    }
                }
            });
            clients.add(t);
            t.start();
        }
        // the write certain to be accepted and never answered to its client
        CompletableFuture<HttpResponse<String>> unread = ServerProcesses.client().sendAsync(
                ServerProcesses.request(first, headers("lost"), "POST", "/api/v1.0/calls", body("lost")),
                HttpResponse.BodyHandlers.ofString());
        keys.add("lost");
        awaitCount("SELECT count(*) FROM write_requests WHERE idempotency_key = 'lost' AND ? IS NOT NULL", 1);
        first.kill();
        unread.cancel(true);
        for (Thread t : clients) {
            t.join(30_000);
        }

        Server second = servers.start("b", Map.of());
        int retried = 0;
        for (String k : keys) {
            String id = requestId(call(second, k));
            if (answered.containsKey(k)) {
                assertEquals(answered.get(k), id, "a retry of an answered write gets its request_id: " + k);
            } else {
                retried++;
            }
        }
        assertTrue(retried >= 1, "at least the unanswered write was retried");
        assertEquals(keys.size(), servers.count("SELECT count(*) FROM write_requests WHERE idempotency_key = ANY(?)", keys),
                "one request per key");
        awaitCount("SELECT count(*) FROM write_requests WHERE status = 'PENDING' AND ? IS NOT NULL", 0);
        assertEquals(keys.size(), servers.count("SELECT count(*) FROM write_requests WHERE status = 'PROCESSED' "
                + "AND idempotency_key = ANY(?)", keys));
        assertEquals(keys.size(), servers.count("SELECT count(*) FROM calls c JOIN leads l ON l.id = c.lead_id "
                + "WHERE l.email = ANY(?)", List.of(EMAIL)), "one call per key: each write applied exactly once");
    }

    private Map<String, String> headers(String idempotencyKey) {
        return Map.of("API-Key", key, "Idempotency-Key", idempotencyKey);
    }

    private String body(String idempotencyKey) {
        return "{\"name\":\"Call " + idempotencyKey + "\",\"email\":\"" + EMAIL + "\"}";
    }

    private HttpResponse<String> call(Server server, String idempotencyKey) throws Exception {
        return ServerProcesses.client().send(ServerProcesses.request(server, headers(idempotencyKey), "POST",
                        "/api/v1.0/calls", body(idempotencyKey)),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String requestId(HttpResponse<String> r) throws Exception {
        if (r.statusCode() != 200) {
            throw new AssertionError(r.statusCode() + " " + r.body());
        }
        return JsonBody.mapper().readTree(r.body()).get("request_id").asText();
    }

    private void awaitCount(String sql, int want) throws Exception {
        Instant deadline = Instant.now().plusSeconds(60);
        while (servers.count(sql, List.of("x")) != want) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not " + want + " within 60 s: " + sql);
            }
            Thread.sleep(20);
        }
    }
}
