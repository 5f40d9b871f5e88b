package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcResync;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import dev.attribution.testing.TestStack;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.ch;
import static dev.attribution.server.cdc.CdcTesting.chLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 100,000 leads and their tags loaded into PostgreSQL in one statement each stream into ClickHouse and check clean;
 * then check finds rows ClickHouse lost and rows it should not have, and resync of that month repairs them.
 */
@MicronautTest
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class CdcBulkLoadTest extends ApiTest {

    private static final int ROWS = 100_000;

    @Inject
    CdcCheck check;

    @Inject
    CdcResync resync;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC bulk", null, ZoneId.of("UTC"), "USD");
    }

    @Test
    @Order(1)
    void bulkLoadEndsEqual() {
        long started = System.currentTimeMillis();
        sql("INSERT INTO leads (account_id, id, email, first_name, created_at, updated_at) "
                        + "SELECT '" + account + "', 'b' || g, 'b' || g || '@example.com', 'Bulk ' || g, "
                        + "timestamptz '2024-01-01' + (g % 365) * interval '1 day' + g * interval '1 second', now() "
                        + "FROM generate_series(1, " + ROWS + ") g",
                "INSERT INTO lead_tags SELECT '" + account + "', 'b' || g, '!bulk' || (g % 7), "
                        + "timestamptz '2024-06-01' + (g % 200) * interval '1 day' FROM generate_series(1, " + ROWS + ") g");
        awaitClean(check, Duration.ofSeconds(120));
        long millis = System.currentTimeMillis() - started;
        System.out.println("bulk load: " + (2 * ROWS) + " changes streamed and checked in " + millis + " ms");
        assertEquals(ROWS, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "'"));
        assertEquals(ROWS, chLong("SELECT count() FROM {db}.lead_tags_current WHERE account_id = '" + account + "'"));
        assertEquals("12", ch("SELECT uniqExact(toYYYYMM(created_at)) FROM {db}.leads_current WHERE account_id = '" + account + "'"));
    }

    @Test
    @Order(2)
    void checkFindsDriftAndResyncOfTheMonthRepairsIt() {
        String db = dev.attribution.testing.TestStack.get().clickhouseDatabase();
        // lose some rows of March 2024, and keep a row PostgreSQL deleted (as if a delete had been missed)
        dev.attribution.testing.TestStack.get().clickhouse("ALTER TABLE " + db + ".leads DELETE WHERE account_id = '" + account + "' AND toYYYYMM(created_at) = 202403 AND id LIKE '%7'");
        awaitMutations();
        dev.attribution.testing.TestStack.get().clickhouse("INSERT INTO " + db + ".leads (account_id, id, email, created_at, updated_at, _version, is_deleted) VALUES ('"
                + account + "', 'ghost', 'ghost@example.com', toDateTime('2024-03-05 00:00:00', 'UTC'), now(), 1, 0)");
        List<CdcCheck.Difference> differences = check.run(null, null);
        assertEquals(1, differences.size(), differences.toString());
        assertTrue(differences.get(0).describe().startsWith("leads 2024-03: PostgreSQL "), differences.get(0).describe());
        assertEquals(1, check.run("leads", 202403).size());
        assertEquals(0, check.run("leads", 202404).size());

        long started = System.currentTimeMillis();
        List<CdcResync.Result> results = resync.run("leads", 202403, CdcResync.Progress.NONE);
        System.out.println("resync of one month: " + results.get(0).rows() + " rows in " + (System.currentTimeMillis() - started) + " ms");
        assertEquals(List.of(), check.run(null, null));
        assertEquals(0, chLong("SELECT count() FROM {db}.leads_current WHERE id = 'ghost'"));
    }

    @Test
    @Order(3)
    void resyncOfEveryTableWhileWritesContinueEndsEqual() throws Exception {
        Thread writer = new Thread(() -> {
            for (int i = 0; i < 40; i++) {
                sql("UPDATE leads SET first_name = 'during resync " + i + "' WHERE account_id = '" + account + "' AND id IN "
                        + "(SELECT 'b' || g FROM generate_series(" + (i * 100 + 1) + ", " + (i * 100 + 100) + ") g)");
            }
        });
        writer.start();
        long started = System.currentTimeMillis();
        List<CdcResync.Result> results = resync.run(null, null, CdcResync.Progress.NONE);
        long millis = System.currentTimeMillis() - started;
        writer.join();
        long rows = results.stream().mapToLong(CdcResync.Result::rows).sum();
        System.out.println("resync of every table: " + rows + " rows in " + millis + " ms (" + (rows * 1000 / Math.max(1, millis)) + " rows/s)");
        try {
            awaitClean(check, Duration.ofSeconds(60));
        } catch (AssertionError e) {
            System.out.println("DIAG resync results " + results);
            try (var c = TestStack.get().connect(); var st = c.createStatement();
                 var rs = st.executeQuery("SELECT id, first_name FROM leads WHERE account_id = '" + account + "' AND id IN (SELECT 'b' || g FROM generate_series(1, 4000) g) ORDER BY id")) {
                int shown = 0;
                while (rs.next() && shown < 8) {
                    String id = rs.getString(1);
                    String chName = ch("SELECT first_name FROM {db}.leads_current WHERE account_id = '" + account + "' AND id = '" + id + "'");
                    if (!chName.equals(rs.getString(2))) {
                        shown++;
                        System.out.println("DIAG " + id + " pg=" + rs.getString(2) + " ch=" + chName + " raw=" + ch("SELECT groupArray(tuple(_version, first_name, is_deleted)) FROM {db}.leads WHERE account_id = '" + account + "' AND id = '" + id + "'"));
                    }
                }
            }
            throw e;
        }
        assertEquals(4_000, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "' AND first_name LIKE 'during resync%'"));
    }

    private static void awaitMutations() {
        ApiTest.await(() -> chLong("SELECT count() FROM system.mutations WHERE database = '{db}' AND is_done = 0") == 0 ? true : null);
    }
}
