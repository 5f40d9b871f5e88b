package dev.attribution.server.platform;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 23 point 3 (V104): what the conversion_touches triggers leave behind and what they queue.
 * (1) The scratch tables of the refresh are temporary tables of the write workers' pooled sessions, which autovacuum
 * never visits; they must be empty files once a transaction ends, or every later flush of that session scans all the
 * rows earlier flushes inserted and deleted (measured: 26 MB and a call ten times slower after 3,000 flushes). Writes
 * go through the API and are applied by the workers; then every such table of every session holds 0 bytes.
 * (2) An UPDATE queues exactly the leads of rows whose watched columns changed (now compared column by column): none
 * for a change of an unwatched column, the lead for a price change, both leads when a sale moves to another lead.
 */
@MicronautTest(transactional = false)
class TouchesTriggerCostTest extends PlatformTest {

    private static final List<String> SCRATCH = List.of("conversion_touches_queue", "conversion_touches_fresh", "sale_credits_fresh");

    @Test
    void theWorkersScratchTablesAreEmptyFilesAfterEachTransaction() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        List<String> requests = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String email = "scratch-" + i + "@refresh.test";
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/leads", lead(email)));
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.refresh.test/p" + i
                    + "\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"ad" + (i % 3) + "\",\"email\":\"" + email
                    + "\",\"date\":\"2026-11-0" + (1 + i % 5) + "T10:00:00\"}"));
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders", "{\"email\":\"" + email + "\",\"orderId\":\"scr-" + i
                    + "\",\"date\":\"2026-11-10T12:00:00\",\"items\":[{\"name\":\"Scratch widget\",\"price\":10}]}"));
        }
        awaitAllProcessed(a.key(), requests);
        // the refresh ran through the scratch tables: every order's sale has its touches and credit rows
        assertEquals(30, count("SELECT count(*) FROM conversion_touches WHERE account_id = ?", a.id()));
        assertEquals(30, count("SELECT count(*) FROM sale_credits WHERE account_id = ?", a.id()));

        // a worker may still be in another test's transaction: wait until none holds rows, then every file is empty
        Map<String, Long> sizes = scratchSizes();
        for (int i = 0; i < 300 && sizes.values().stream().anyMatch(s -> s != 0); i++) {
            Thread.sleep(100);
            sizes = scratchSizes();
        }
        assertFalse(sizes.isEmpty(), "the workers' sessions created their scratch tables");
        assertTrue(sizes.keySet().stream().anyMatch(k -> k.endsWith(".sale_credits_fresh")), sizes.toString());
        assertTrue(sizes.values().stream().allMatch(s -> s == 0), "bytes per session's scratch table: " + sizes);
    }

    @Test
    void anUpdateQueuesTheLeadsOfRowsWhoseWatchedColumnsChanged() throws Exception {
        String acc = account().id();
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             java.sql.Statement s = c.createStatement()) {
            s.execute("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ('" + acc + "', 'L1', 'l1@cost.test', now(), now()), "
                    + "('" + acc + "', 'L2', 'l2@cost.test', now(), now())");
            s.execute("INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price, "
                    + "discount, taxes, shipping, hard_cost, cost_of_goods, currency, recurring, sale_date, created_at, updated_at) "
                    + "VALUES ('" + acc + "', 'S1', 'O1', 'L1', 'L1', 'P', 0, 1, 10, 10, 0, 0, 0, 0, 0, 'USD', false, now(), now(), now())");
            c.setAutoCommit(false);
            s.execute("SET LOCAL attribution.touches_deferred = on");
            String where = " WHERE account_id = '" + acc + "' AND id = 'S1'";
            s.execute("UPDATE sales SET updated_at = now() + interval '1 minute', product_name = 'Q'" + where);
            assertEquals("", queued(s), "no watched column changed");
            s.execute("UPDATE sales SET price = 12" + where);
            assertEquals("L1", queued(s), "the price is watched (sale_credits copies it)");
            s.execute("DELETE FROM pg_temp.conversion_touches_queue");
            s.execute("UPDATE sales SET lead_id = 'L2'" + where);
            assertEquals("L1,L2", queued(s), "the sale left L1 for L2");
            c.rollback();
        }
    }

    /** The distinct leads queued in this transaction, sorted, comma-separated. */
    private static String queued(java.sql.Statement s) throws Exception {
        try (ResultSet rs = s.executeQuery("SELECT to_regclass('pg_temp.conversion_touches_queue') IS NULL")) {
            rs.next();
            if (rs.getBoolean(1)) {
                return ""; // nothing was ever queued in this session
            }
        }
        try (ResultSet rs = s.executeQuery("SELECT coalesce(string_agg(DISTINCT lead_id, ',' ORDER BY lead_id), '') FROM pg_temp.conversion_touches_queue")) {
            rs.next();
            return rs.getString(1);
        }
    }

    /** schema.table → bytes, for every session's temporary scratch table. */
    private Map<String, Long> scratchSizes() throws Exception {
        Map<String, Long> out = new TreeMap<>();
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT n.nspname || '.' || c.relname, pg_relation_size(c.oid) FROM pg_class c "
                     + "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relpersistence = 't' AND c.relname = ANY (?)")) {
            ps.setArray(1, c.createArrayOf("text", SCRATCH.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return out;
    }
}
