package dev.attribution.server.platform;

import dev.attribution.command.requests.WriteAcceptance;
import io.micronaut.context.annotation.Property;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A node at capacity (docs/clients.md "When a node is at capacity"): with {@code attribution.requests.max-in-flight}
 * writes being accepted, the next write is answered 503 at once, with {@code Retry-After} and the error envelope, and
 * nothing of it is stored; the writes in flight are answered 200 and stored once they can commit, and their slots are
 * free again afterwards — for writes refused by validation too. At capacity a write is refused before its API key
 * is checked, and reads are still served. The request log is held by a lock on
 * {@code write_requests} taken from the test, so which writes are in flight does not depend on timing.
 */
@MicronautTest(transactional = false)
@Property(name = "attribution.requests.max-in-flight", value = "2")
class WriteCapacityTest extends PlatformTest {

    private static final String LEADS = "/api/v1.0/leads";

    @Inject
    WriteAcceptance acceptance;

    @Test
    void aWriteBeyondCapacityIsRefusedWith503AndNotStoredAndTheSlotsComeBack() throws Exception {
        Acct a = account();
        List<CompletableFuture<Response>> held = new ArrayList<>();
        long refusedBefore = acceptance.refused();
        try (Connection lock = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE write_requests IN SHARE MODE"); // the committers' INSERTs wait for it
            }
            for (int i = 0; i < 2; i++) {
                String body = "{\"email\":\"held-" + i + "@example.com\"}";
                held.add(CompletableFuture.supplyAsync(() -> post(a.key(), LEADS, body)));
            }
            await(() -> acceptance.inFlight() == 2 ? true : null);

            Response refused = post(a.key(), LEADS, "{\"email\":\"third@example.com\"}");
            assertError(refused, 503, "Service unavailable: this node is at capacity (2 writes in flight); nothing was"
                    + " accepted, retry after 1 second");
            assertEquals("1", refused.header("Retry-After"), refused.headers().toString());
            assertEquals(refusedBefore + 1, acceptance.refused());
            // refused before the API key is read (WriteCapacityFilter); reads are still served
            assertEquals(503, post("ak_not-a-key", LEADS, "{\"email\":\"fourth@example.com\"}").status());
            assertEquals(200, get(a.key(), LEADS + "?limit=1").status());
            lock.rollback();
        }
        for (CompletableFuture<Response> f : held) {
            Response r = f.get();
            assertEquals(200, r.status(), r.raw());
        }
        assertEquals(2, count("SELECT count(*) FROM write_requests WHERE account_id = ?", a.id()), "the refused write is not stored");
        assertEquals(0, count("SELECT count(*) FROM write_requests WHERE account_id = ? AND payload::text LIKE '%third@%'", a.id()));
        await(() -> acceptance.inFlight() == 0 ? true : null);

        // refused by validation: a 400, and its slot is free again (more of them than the capacity, one after another)
        for (int i = 0; i < 3; i++) {
            assertEquals(400, post(a.key(), LEADS, "{\"email\":\"not-an-email\"}").status());
        }
        assertEquals(0, acceptance.inFlight());
        assertEquals(200, post(a.key(), LEADS, "{\"email\":\"after@example.com\"}").status());
        assertEquals(refusedBefore + 2, acceptance.refused());
    }
}
