package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcResync;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.ch;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Check and resync over the tables the other features stream, with the column types they use: Decimal, Nullable
 * numbers and timestamps, Array(String), booleans as UInt8, Date, timestamps without zone, composite keys, tables
 * without a month partition and views that rename or filter columns. Streamed rows and resynced rows both check
 * equal; a changed value in ClickHouse is found and repaired.
 */
@MicronautTest(transactional = false)
class CdcAllTablesTest extends ApiTest {

    @Inject
    CdcCheck check;

    @Inject
    CdcResync resync;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC all tables", null, ZoneId.of("UTC"), "USD");
    }

    @Test
    void everyColumnTypeChecksEqualStreamedAndResynced() {
        String a = "'" + account + "'";
        sql("INSERT INTO custom_costs (account_id, id, name, cost, frequency, start_date, end_date, tags) VALUES "
                        + "(" + a + ", 'cc1', NULL, 12.34, 'DAILY', '2025-03-04 23:30:00', NULL, ARRAY['x', 'y z']), "
                        + "(" + a + ", 'cc2', 'Rent', -0.05, 'MONTHLY', '2025-01-01 00:00:00', '2025-12-31 23:59:59', '{}')",
                "INSERT INTO source_links (account_id, id, tag, name, category_id, goal_id, disregarded, organic, deleted_at) VALUES "
                        + "(" + a + ", 'sl1', '@a', 'A', 7, NULL, true, false, NULL), "
                        + "(" + a + ", 'sl2', '@b', 'B', NULL, 3, false, true, '2025-05-05T05:05:05.5Z')",
                "INSERT INTO ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, spend, impressions, reported_conversions, currency) VALUES "
                        + "(" + a + ", 'FACEBOOK', 'ad1', '2025-02-28', 'act1', 100.10, 12345678901, 1.5, 'USD'), "
                        + "(" + a + ", 'FACEBOOK', 'ad1', '2025-03-01', 'act1', 0, 0, 0, 'EUR')",
                "INSERT INTO subscriptions (account_id, id, lead_id, name, periodicity, price, status, start_date, end_date, "
                        + "trial_end_date, created_at, updated_at) VALUES "
                        + "(" + a + ", 'sub1', 'l1', NULL, 'MONTHLY', 9.99, 'ACTIVE', '2025-04-30T23:59:59Z', NULL, '2025-05-07T00:00:00Z', now(), now())");
        awaitClean(check, Duration.ofSeconds(60));

        // a value changed behind the bridge's back (a newer version) is a difference, in its table and month
        String db = "{db}";
        sql("UPDATE custom_costs SET cost = 99.99, tags = ARRAY['q'] WHERE account_id = " + a + " AND id = 'cc1'");
        awaitClean(check, Duration.ofSeconds(60));
        run("INSERT INTO " + db + ".custom_costs (account_id, id, name, cost, frequency, start_date, tags, created_at, updated_at, _version, is_deleted) "
                + "SELECT account_id, id, name, toDecimal64(1, 2), frequency, start_date, tags, created_at, updated_at, toUInt64(18446744073709551000), 0 "
                + "FROM " + db + ".custom_costs WHERE account_id = " + a + " AND id = 'cc1' LIMIT 1");
        run("INSERT INTO " + db + ".ad_spend_daily (account_id, platform, ad_id, day, ad_account_id, spend, currency, _version, is_deleted) "
                + "VALUES (" + a + ", 'FACEBOOK', 'ad1', '2025-03-01', 'act1', 5, 'EUR', 18446744073709551000, 0)");
        List<CdcCheck.Difference> differences = check.run(null, null);
        List<String> described = differences.stream().map(CdcCheck.Difference::summary).toList();
        // custom_costs has no month: its line counts the rows of every account in the (shared) test database, so
        // only "the same count on both sides" is asserted for it
        assertEquals(List.of("ad_spend_daily 2025-03: PostgreSQL 1 rows, ClickHouse 1 rows; checksums differ",
                "custom_costs: PostgreSQL n rows, ClickHouse n rows; checksums differ"),
                described.stream().filter(d -> d.startsWith("ad_spend_daily") || d.startsWith("custom_costs"))
                        .map(d -> d.startsWith("custom_costs")
                                ? d.replaceAll("PostgreSQL (\\d+) rows, ClickHouse \\1 rows", "PostgreSQL n rows, ClickHouse n rows") : d)
                        .toList());

        // the injected versions are above any WAL position: only a resync of everything below them would not help,
        // so drop them the way an operator would (they stand for corrupted rows) and resync every table
        run("ALTER TABLE " + db + ".custom_costs DELETE WHERE _version = 18446744073709551000");
        run("ALTER TABLE " + db + ".ad_spend_daily DELETE WHERE _version = 18446744073709551000");
        run("INSERT INTO " + db + ".custom_costs (account_id, id, name, cost, frequency, start_date, tags, created_at, updated_at, _version, is_deleted) "
                + "SELECT account_id, id, name, toDecimal64(2, 2), frequency, start_date, tags, created_at, updated_at, toUInt64(1), 0 "
                + "FROM " + db + ".custom_costs WHERE account_id = " + a + " AND id = 'cc2' LIMIT 1");
        run("ALTER TABLE " + db + ".source_links DELETE WHERE account_id = " + a + " AND id = 'sl2'");
        assertFalse(check.run(null, null).isEmpty());
        List<CdcResync.Result> results = resync.run(null, null, CdcResync.Progress.NONE);
        assertTrue(results.stream().map(CdcResync.Result::table).toList().containsAll(
                List.of("custom_costs", "source_links", "ad_spend_daily", "subscriptions", "sales", "clicks")), results.toString());
        assertEquals(List.of(), check.run(null, null).stream().map(CdcCheck.Difference::describe).toList());
        assertEquals("99.99\t['q']", ch("SELECT cost, tags FROM " + db + ".custom_costs_current WHERE account_id = " + a + " AND id = 'cc1'"));
        assertEquals("\\N\t7\t1", ch("SELECT goal_id, category_id, disregarded FROM " + db + ".source_links_current WHERE account_id = " + a + " AND id = 'sl1'"));
    }

    /** A ClickHouse statement with no result (ALTER, INSERT … SELECT). */
    private static void run(String statement) {
        TestStack.get().clickhouse(statement.replace("{db}", TestStack.get().clickhouseDatabase()));
    }
}
