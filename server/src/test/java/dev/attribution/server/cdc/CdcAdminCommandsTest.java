package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.server.support.AdminRuns.Run;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static dev.attribution.server.support.AdminRuns.admin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code scripts/admin cdc check} and {@code cdc resync} as an operator runs them: exit codes, output, progress bar. */
@MicronautTest(transactional = false)
class CdcAdminCommandsTest extends ApiTest {

    @Inject
    CdcCheck check;

    String account;

    @BeforeAll
    void account() {
        // the admin commands build their own context: point it at this JVM's servers
        TestStack.get().properties().forEach(System::setProperty);
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC admin", null, ZoneId.of("UTC"), "USD");
    }

    @AfterAll
    void clear() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    @Test
    void checkPrintsEachDifferenceAndResyncRepairsIt() {
        sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) SELECT '" + account + "', 'adm' || g, 'adm' || g || '@example.com', "
                + "timestamptz '2023-05-01' + g * interval '1 hour', now() FROM generate_series(1, 500) g");
        awaitClean(check, Duration.ofSeconds(60));
        Run clean = admin("cdc", "check");
        assertEquals(0, clean.exit(), clean.toString());
        assertEquals("ClickHouse matches PostgreSQL", clean.out().trim());
        // a running count of the tables compared, redrawn in place on stderr (issue 24 point 5; the captured text is
        // split into lines at each carriage return)
        assertTrue(clean.err().matches("(?s)(.*\\n)?check \\[#{30}\\] 100%  (\\d+)/\\2 tables"), clean.err());

        String db = TestStack.get().clickhouseDatabase();
        TestStack.get().clickhouse("INSERT INTO " + db + ".lead_tags (account_id, lead_id, tag, assigned_at, _version, is_deleted) VALUES ('"
                + account + "', 'adm1', '!ghost', toDateTime('2023-05-02 00:00:00', 'UTC'), 1, 0)");
        Run drift = admin("cdc", "check");
        assertEquals(1, drift.exit(), drift.toString());
        assertEquals("lead_tags 2023-05: PostgreSQL 0 rows, ClickHouse 1 rows; checksums differ\n"
                + "  only in ClickHouse: account_id=" + account + ", lead_id=adm1, tag=!ghost\n1 difference", drift.out().trim());

        Run bad = admin("cdc", "resync", "--month", "May 2023");
        assertEquals(2, bad.exit(), bad.toString());
        assertTrue(bad.err().contains("month must be YYYY-MM, e.g. 2025-03"), bad.err());

        Run resync = admin("cdc", "resync", "--table", "lead_tags", "--month", "2023-05");
        assertEquals(0, resync.exit(), resync.toString());
        assertTrue(resync.err().contains("lead_tags [##############################] 100%"), resync.err());
        assertTrue(resync.out().startsWith("lead_tags: 0 rows in "), resync.out());
        assertEquals(0, admin("cdc", "check").exit());
    }

    /**
     * Issue 24 point 6: calls and subscriptions moved to another lead through the API (POST /calls and POST
     * /subscriptions upsert by externalId / subscriptionId) leave ClickHouse versions under two lead ids; the views count
     * each once (by id), and so must the check: clean. A row really missing from ClickHouse is reported with its row.
     */
    @Test
    void movedCallsAndSubscriptionsCheckCleanAndAMissingRowIsReportedWithItsRow() {
        String key = newAccount("UTC", dev.attribution.api.auth.Roles.ALL);
        String acc = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        String callId = null;
        for (String lead : java.util.List.of("from", "to")) {
            String email = lead + "@move.test";
            processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}", "CREATE_LEAD");
            callId = processed(key, "POST", "/api/v1.0/calls", "{\"name\":\"Moved call\",\"email\":\"" + email
                    + "\",\"externalId\":\"mv-call-1\",\"date\":\"2026-11-05T10:00:00Z\"}", "CREATE_CALL").get("id").asText();
            processed(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"" + email + "\",\"subscriptionId\":\"mv-sub-1\",\"status\":\"ACTIVE\","
                    + "\"startDate\":\"2026-11-01\",\"price\":5,\"periodicity\":\"MONTH\"}", "CREATE_SUBSCRIPTION");
            awaitCdcCaughtUp();
        }
        String db = TestStack.get().clickhouseDatabase();
        for (String table : java.util.List.of("calls", "subscriptions")) {
            assertEquals("2", TestStack.get().clickhouse("SELECT uniqExact(lead_id) FROM " + db + "." + table + " WHERE account_id = '" + acc + "'").trim(),
                    table + " has versions under both leads");
            assertEquals("1", TestStack.get().clickhouse("SELECT count() FROM " + db + "." + table + "_current WHERE account_id = '" + acc + "'").trim());
            Run moved = admin("cdc", "check", "--table", table);
            assertEquals(0, moved.exit(), moved.toString());
            assertEquals("ClickHouse matches PostgreSQL", moved.out().trim());
        }

        TestStack.get().clickhouse("ALTER TABLE " + db + ".calls DELETE WHERE account_id = '" + acc + "'");
        await(() -> "0".equals(TestStack.get().clickhouse("SELECT count() FROM " + db + ".calls WHERE account_id = '" + acc + "'").trim()) ? true : null);
        Run missing = admin("cdc", "check", "--table", "calls");
        assertEquals(1, missing.exit(), missing.toString());
        String out = missing.out();
        assertTrue(out.contains("\n  only in PostgreSQL: account_id=" + acc + ", id=" + callId + " {"), out);
        assertTrue(out.contains("\"external_id\" : \"mv-call-1\"") || out.contains("\"external_id\":\"mv-call-1\""), out);
        assertTrue(out.trim().endsWith("1 difference"), out);

        Run resync = admin("cdc", "resync", "--table", "calls", "--month", "2026-11");
        assertEquals(0, resync.exit(), resync.toString());
        assertEquals(0, admin("cdc", "check", "--table", "calls").exit());
    }

    @Test
    void unknownTableIsRefused() {
        Run r = admin("cdc", "check", "--table", "nope");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("table nope is not streamed; streamed tables: leads, lead_tags, lead_phones"), r.err());
    }
}
