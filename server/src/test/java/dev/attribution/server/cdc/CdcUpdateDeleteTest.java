package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.chLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Update and delete storms through the running bridge: the current views count every row once, as PostgreSQL does. */
@MicronautTest
class CdcUpdateDeleteTest extends ApiTest {

    @Inject
    CdcCheck check;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC storms", null, ZoneId.of("UTC"), "USD");
    }

    private String insertLead(String id, String createdAt) {
        return "INSERT INTO leads (account_id, id, email, first_name, created_at, updated_at) VALUES ('" + account + "', '" + id
                + "', '" + id + "@example.com', 'v0', '" + createdAt + "', '" + createdAt + "')";
    }

    @Test
    void updateStormCountsEachLeadOnce() {
        List<String> inserts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            inserts.add(insertLead("upd" + i, "2025-0" + (1 + i % 3) + "-15T10:00:00Z"));
            inserts.add("INSERT INTO lead_tags VALUES ('" + account + "', 'upd" + i + "', '!storm', '2025-02-01T00:00:00Z')");
        }
        sql(inserts.toArray(String[]::new));
        for (int round = 1; round <= 20; round++) {
            // each round its own transaction; some rounds touch the same row twice in one transaction
            sql("UPDATE leads SET first_name = 'v" + round + "', updated_at = now() WHERE account_id = '" + account + "' AND id LIKE 'upd%'",
                    "UPDATE leads SET last_name = 'r" + round + "' WHERE account_id = '" + account + "' AND id LIKE 'upd1%'",
                    "UPDATE lead_tags SET assigned_at = assigned_at + interval '1 day' WHERE account_id = '" + account + "'");
        }
        awaitClean(check, Duration.ofSeconds(60));
        assertEquals(200, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "' AND id LIKE 'upd%'"));
        assertEquals(200, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "' AND first_name = 'v20'"));
        assertEquals(200, chLong("SELECT count() FROM {db}.lead_tags_current WHERE account_id = '" + account + "'"));

    }

    @Test
    void deletesAndReinsertsLeaveOnlyTheLiveRows() {
        List<String> inserts = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            inserts.add(insertLead("del" + i, "2025-03-10T00:00:00Z"));
            inserts.add("INSERT INTO lead_phones VALUES ('" + account + "', 'del" + i + "', '+1555000" + i + "')");
        }
        sql(inserts.toArray(String[]::new));
        // delete half, re-create a quarter under the same ids with a different join month, delete a phone of each
        sql("DELETE FROM leads WHERE account_id = '" + account + "' AND id IN (SELECT 'del' || g FROM generate_series(0, 49) g)");
        List<String> again = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            again.add(insertLead("del" + i, "2025-04-10T00:00:00Z"));
        }
        sql(again.toArray(String[]::new));
        sql("DELETE FROM lead_phones WHERE account_id = '" + account + "' AND lead_id IN (SELECT 'del' || g FROM generate_series(50, 59) g)");
        awaitClean(check, Duration.ofSeconds(60));
        assertEquals(75, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "' AND id LIKE 'del%'"));
        assertEquals(25, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account
                + "' AND id LIKE 'del%' AND toYYYYMM(created_at) = 202504"));
        assertEquals(40, chLong("SELECT count() FROM {db}.lead_phones_current WHERE account_id = '" + account + "'"));
    }
}
