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
 * and everything accepted is applied once, in order. Low thresholds here so that a test's burst is one on most
 * machines; the timing itself is proven with a test clock in command-side's {@code AcceptBurstsTest}.
 */
@MicronautTest(transactional = false)
@Property(name = "attribution.worker.yield-above", value = "40")
@Property(name = "attribution.worker.max-yield", value = "3s")
@Property(name = "attribution.worker.batch-size", value = "10")
class AcceptBurstTest extends PlatformTest {

    private static final int SENDERS = 8;
    private static final long BURST_MILLIS = 7000;

    @Test
    void everyWriteOfABurstIsAppliedOnceAndTheBurstGaugesAreExported() throws Exception {
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
        for (Future<?> f : senders) {
            f.get();
        }
        pool.shutdown();
        // how long workers stand aside is AcceptBurstsTest's (a test clock); here: the gauges exist, and whatever the
        // machine's speed made of the burst, every accepted write is applied once, in order
        String metrics = get(null, "/prometheus").raw();
        double burst = gauge(metrics, "writes_burst");
        assertTrue(burst == 0.0 || burst == 1.0, "writes_burst is 0 or 1: " + burst);
        assertTrue(gauge(metrics, "writes_accepted_per_second") >= 0, metrics);
        gauge(metrics, "write_workers_standing_aside");
        int total = sent.get();
        assertTrue(total > 0, "writes sent: " + total);
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
