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
 * Issue 23 point 3 (V104): the scratch tables of the conversion_touches / sale_credits refresh are temporary tables of
 * the write workers' pooled sessions, which autovacuum never visits; they must be empty files once a transaction ends,
 * or every later flush of that session scans all the rows earlier flushes inserted and deleted (measured: 26 MB and
 * a call ten times slower after 3,000 flushes). Writes go through the API and are applied by the workers; then every
 * such table of every session holds 0 bytes.
 */
@MicronautTest(transactional = false)
class RefreshScratchTablesTest extends PlatformTest {

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
        assertEquals(30, count("SELECT count(*) FROM conversion_touches WHERE account_id = '" + a.id() + "'"));
        assertEquals(30, count("SELECT count(*) FROM sale_credits WHERE account_id = '" + a.id() + "'"));

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

    private long count(String sql) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(sql);
             ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
