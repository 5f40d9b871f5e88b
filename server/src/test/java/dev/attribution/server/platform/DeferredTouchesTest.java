package dev.attribution.server.platform;

import dev.attribution.command.requests.WriteWorker;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 point 3: a worker's batch refreshes the conversion touches of its leads once, before it commits (V102,
 * DeferredTouches), and the projection ends exactly as if each statement had refreshed it at once. The writes are
 * accepted while the worker is stopped, so the leads' creates, clicks, orders, an order placed again and a late click
 * are claimed together in a few batches.
 */
@MicronautTest(transactional = false)
class DeferredTouchesTest extends PlatformTest {

    private static final int LEADS = 12;

    @Inject
    WriteWorker worker;

    @Test
    void aBatchRefreshesItsLeadsConversionTouchesOnceAndExactly() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        List<String> requests = new ArrayList<>();
        worker.stop();
        try {
            for (int i = 0; i < LEADS; i++) {
                String email = "touch-" + i + "@deferred.test";
                requests.add(sendWrite(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}"));
                if (i % 4 != 3) { // every fourth lead converts without a click: no touches row
                    requests.add(sendWrite(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.deferred.test/p" + i
                            + "\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"ad" + i + "\",\"email\":\"" + email
                            + "\",\"date\":\"2026-11-0" + (1 + i % 5) + "T10:00:00\"}"));
                    requests.add(sendWrite(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://news.deferred.test/o" + i
                            + "\",\"isOrganic\":true,\"email\":\"" + email + "\",\"date\":\"2026-11-0" + (2 + i % 5) + "T11:00:00\"}"));
                }
                // lead 1 bought before its clicks: no touches row
                String date = i == 1 ? "2026-10-01T12:00:00" : "2026-11-10T12:00:00";
                requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders", "{\"email\":\"" + email + "\",\"orderId\":\"ord-" + i
                        + "\",\"date\":\"" + date + "\",\"items\":[{\"name\":\"Deferred widget\",\"price\":10}]}"));
            }
            // lead 0's order placed again (its sale soft-deleted and recreated: its row moves to the new sale); a late
            // paid click of lead 2 dated before its first one (its first-click picks change)
            requests.add(sendWrite(a.key(), "PUT", "/api/v1.0/orders/ord-0", "{\"items\":[{\"name\":\"Deferred widget\",\"price\":12}]}"));
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.deferred.test/late\","
                    + "\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"ad-late\",\"email\":\"touch-2@deferred.test\","
                    + "\"date\":\"2026-10-20T09:00:00\"}"));
        } finally {
            worker.start();
        }
        awaitAllProcessed(a.key(), requests);

        assertEquals(LEADS, count("SELECT count(*) FROM sales WHERE account_id = ? AND NOT deleted", a.id()));
        // the projection holds exactly what recomputing it from the tables gives, both ways
        String fresh = "SELECT * FROM conversion_touches_of((SELECT array_agg(account_id) FROM leads WHERE account_id = ?),"
                + " (SELECT array_agg(id) FROM leads WHERE account_id = ?))";
        assertEquals(0, count("SELECT count(*) FROM (SELECT * FROM conversion_touches WHERE account_id = ? EXCEPT " + fresh + ") x",
                a.id(), a.id(), a.id()), "no stale or extra row");
        assertEquals(0, count("SELECT count(*) FROM (" + fresh + " EXCEPT SELECT * FROM conversion_touches WHERE account_id = ?) x",
                a.id(), a.id(), a.id()), "no missing row");
        // 12 leads, 3 without clicks, lead 1's sale before its clicks: 8 rows
        assertEquals(8, count("SELECT count(*) FROM conversion_touches WHERE account_id = ?", a.id()));
        assertEquals(1, count("SELECT count(*) FROM conversion_touches t JOIN sales s ON s.account_id = t.account_id"
                + " AND s.id = t.conversion_id WHERE t.account_id = ? AND s.order_id = 'ord-0' AND NOT s.deleted", a.id()),
                "lead 0's row follows its recreated sale");
        assertEquals(1, count("SELECT count(*) FROM conversion_touches t JOIN leads l ON l.account_id = t.account_id AND l.id = t.lead_id"
                + " WHERE t.account_id = ? AND l.email = 'touch-2@deferred.test' AND t.first_paid_ad = 'ad-late'", a.id()),
                "the late click is lead 2's first paid click");
        assertEquals(0, count("SELECT count(*) FROM write_requests WHERE account_id = ? AND status <> 'PROCESSED'", a.id()));
    }
}
