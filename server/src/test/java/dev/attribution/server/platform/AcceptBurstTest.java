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
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ingest first (AcceptBursts, README "Architecture"): while the node accepts faster than {@code yield-above} writes/s
 * its workers stand aside, at most {@code max-yield} after they last caught up; then they apply beside the accepts,
 * and everything accepted is applied once, in order. Low thresholds here so that a test's burst is one on any machine.
 */
@MicronautTest(transactional = false)
@Property(name = "attribution.worker.yield-above", value = "40")
@Property(name = "attribution.worker.max-yield", value = "3s")
@Property(name = "attribution.worker.batch-size", value = "10")
class AcceptBurstTest extends PlatformTest {

    private static final int SENDERS = 8;
    private static final long BURST_MILLIS = 7000;

    @Test
    void workersStandAsideDuringABurstForAtMostMaxYieldAndApplyEverythingAfter() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        ExecutorService pool = Executors.newFixedThreadPool(SENDERS);
        AtomicInteger sent = new AtomicInteger();
        long end = System.currentTimeMillis() + BURST_MILLIS;
        List<Future<?>> senders = new ArrayList<>();
        for (int t = 0; t < SENDERS; t++) {
            senders.add(pool.submit(() -> {
                while (System.currentTimeMillis() < end) {
                    int i = sent.getAndIncrement();
                    // every 10th write to the same lead (one lane): none of its tags may be lost
                    String body = "{\"email\":\"burst-" + (i % 10 == 0 ? "same" : Integer.toString(i)) + "@example.com\",\"tags\":[\"!t-" + i + "\"]}";
                    assertEquals(200, post(a.key(), "/api/v1.0/leads", body).status());
                    sleep(25); // ~40 writes/s per sender: a burst of ~300/s, far above 40/s
                }
                return null;
            }));
        }
        String processed = "SELECT count(*) FROM write_requests WHERE account_id = '" + a.id() + "' AND status = 'PROCESSED'";
        sleep(700); // the burst is measured over a 250 ms window: yielding has begun
        long atStart = count(processed);
        sleep(1500);
        long whileYielding = count(processed) - atStart;
        String metrics = get(null, "/prometheus").raw();
        for (Future<?> f : senders) {
            f.get();
        }
        // the burst ran on for ~4 s past max-yield (3 s since the workers last caught up, before it): they applied
        // beside the accepts then (and may have caught up and stood aside again, which is as it should be)
        long besideTheAccepts = count(processed) - atStart - whileYielding;
        pool.shutdown();
        // 4 worker threads, batches of 10: a batch already running when the burst was seen may finish
        assertTrue(whileYielding <= 40, "applied while the burst was on and within max-yield: " + whileYielding);
        assertTrue(besideTheAccepts > 0, "after max-yield the workers apply although the burst goes on");
        assertEquals(1.0, gauge(metrics, "writes_burst"), "the burst is exported");
        assertTrue(gauge(metrics, "writes_accepted_per_second") > 40, metrics);
        int total = sent.get();
        assertTrue(total > 300, "a burst: " + total);
        await(() -> count(processed) == total ? true : null);
        assertEquals(total - (total + 9) / 10 + 1, count("SELECT count(*) FROM leads WHERE account_id = '" + a.id() + "'"));
        // every tag of the shared lead
        assertEquals(count("SELECT count(*) FROM lead_tags WHERE account_id = '" + a.id() + "' AND lead_id = (SELECT id FROM leads WHERE account_id = '"
                + a.id() + "' AND email = 'burst-same@example.com')"), (total + 9) / 10);
    }

    private static double gauge(String metrics, String name) {
        String line = metrics.lines().filter(l -> l.startsWith(name + " ")).findFirst().orElseThrow(() -> new AssertionError(name + " not exported"));
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static long count(String sql) {
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }
}
