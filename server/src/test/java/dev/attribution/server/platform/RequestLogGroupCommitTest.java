package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Group commit of the request log: under concurrent accepts every accepted request is stored exactly once and
 * applied, and a client's sequential writes keep their order. (How many accepts share a commit depends on timing; the
 * effect is measured by bench/run.sh, not asserted here.)
 */
@MicronautTest(transactional = false)
class RequestLogGroupCommitTest extends PlatformTest {

    @Test
    void concurrentAcceptsAreEachStoredAndAppliedOnce() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<String>> ids = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String body = "{\"email\":\"group-" + i + "@example.com\"}";
            ids.add(pool.submit(() -> {
                Response r = post(a.key(), "/api/v1.0/leads", body);
                assertEquals(200, r.status(), r.raw());
                return r.body().get("request_id").asText();
            }));
        }
        Set<String> accepted = new HashSet<>();
        for (Future<String> f : ids) {
            accepted.add(f.get());
        }
        pool.shutdown();
        assertEquals(400, accepted.size(), "400 distinct request ids");
        assertEquals("400", one("SELECT count(*) FROM write_requests WHERE account_id = '" + a.id() + "'"));
        await(() -> "0".equals(one("SELECT count(*) FROM write_requests WHERE account_id = '" + a.id() + "' AND status <> 'PROCESSED'")) ? true : null);
        assertEquals("400", one("SELECT count(*) FROM leads WHERE account_id = '" + a.id() + "'"));
    }

    @Test
    void aClientsSequentialWritesApplyInOrder() {
        Acct a = account();
        for (int i = 0; i < 10; i++) {
            assertEquals(200, post(a.key(), "/api/v1.0/leads", "{\"email\":\"seq@example.com\",\"tags\":[\"!step-" + i + "\"]}").status());
            assertEquals(200, put(a.key(), "/api/v1.0/leads?email=seq@example.com", "{\"removeTags\":[\"!step-" + i + "\"]}").status());
        }
        JsonNode last = write(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"seq@example.com\",\"tags\":[\"!done\"]}");
        assertEquals("PROCESSED", last.get("status").asText(), last.toString());
        assertEquals("[\"!done\"]", last.get("result").get("tags").toString(), "each tag was removed after it was added");
    }

    private static String one(String sql) {
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }
}
