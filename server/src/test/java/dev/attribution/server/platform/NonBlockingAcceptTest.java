package dev.attribution.server.platform;

import dev.attribution.testing.TestStack;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The lead write routes answer from the request log's commit without a request thread waiting per write: while the
 * request log cannot commit (its table locked), accepted writes hold no server thread in {@code WriteRequestLog}, no
 * answer is sent before the row is durable, and every write is answered once the commit went through — each on its
 * request's event loop, not on the committer thread that completes a whole commit's writes in turn.
 */
@MicronautTest(transactional = false)
@Property(name = "test.answer-threads", value = "true")
class NonBlockingAcceptTest extends PlatformTest {

    private static final int WRITES = 40;

    @Test
    void writesWaitingForTheRequestLogHoldNoThread() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        // a first write loads the key and the blacklist into memory, so the writes below are decided on the event loop
        assertEquals(200, post(a.key(), "/api/v1.0/leads", "{\"email\":\"warm@example.com\"}").status());
        ExecutorService clients = Executors.newFixedThreadPool(WRITES);
        try (Connection lock = TestStack.get().connect()) {
            lock.setAutoCommit(false);
            try (Statement st = lock.createStatement()) {
                st.execute("LOCK TABLE write_requests IN EXCLUSIVE MODE"); // INSERTs wait, reads do not
            }
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < WRITES; i++) {
                String body = i % 2 == 0
                        ? "{\"email\":\"held-" + i + "@example.com\"}"
                        : "{\"emails\":[\"held-" + (i - 1) + "@example.com\"],\"tags\":[\"!held\"]}";
                String path = i % 2 == 0 ? "/api/v1.0/leads" : "/api/v1.0/leads/tags";
                answers.add(clients.submit(() -> post(a.key(), path, body)));
            }
            await(() -> committerWaitsForLock() ? true : null);
            Thread.sleep(500); // the other writes reach the queue

            List<String> waiting = threadsIn("WriteRequestLog", "accept", "await");
            assertTrue(waiting.isEmpty(), "no thread waits for the request log: " + waiting);
            assertFalse(answers.stream().anyMatch(Future::isDone), "no write is answered before it is durable");
            lock.commit();

            Set<String> ids = new HashSet<>();
            for (Future<Response> f : answers) {
                Response r = f.get(30, TimeUnit.SECONDS);
                assertEquals(200, r.status(), r.raw());
                assertEquals("OK", r.body().get("result").asText(), r.raw());
                ids.add(r.body().get("request_id").asText());
            }
            assertEquals(WRITES, ids.size(), "distinct request ids");
            List<String> answeredOn = List.copyOf(AnswerThreads.NAMES);
            assertEquals(WRITES + 1, answeredOn.size(), "answers recorded: " + answeredOn);
            assertTrue(answeredOn.stream().noneMatch(t -> t.startsWith("request-log-committer")),
                    "no answer rendered by the committer: " + answeredOn);
            assertEquals(String.valueOf(WRITES + 1), one("SELECT count(*) FROM write_requests WHERE account_id = '" + a.id() + "'"));
        } finally {
            clients.shutdownNow();
        }
    }

    /** Names of live threads with a frame of {@code className}'s {@code methods} on their stack. */
    private static List<String> threadsIn(String className, String... methods) {
        List<String> found = new ArrayList<>();
        Thread.getAllStackTraces().forEach((t, stack) -> {
            for (StackTraceElement e : stack) {
                if (e.getClassName().endsWith("." + className) && Arrays.asList(methods).contains(e.getMethodName())) {
                    found.add(t.getName());
                    return;
                }
            }
        });
        return found;
    }

    private static boolean committerWaitsForLock() {
        return !"0".equals(one("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO write_requests%'"));
    }

    private static String one(String sql) {
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }
}
