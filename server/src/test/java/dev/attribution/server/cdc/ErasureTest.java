package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.Erasure;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.attribution.server.cdc.CdcTesting.ch;
import static dev.attribution.server.cdc.CdcTesting.chLong;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * After a lead is redacted in PostgreSQL and its redaction streamed, {@link Erasure} leaves no trace of its email,
 * name or phone in any column of any ClickHouse table: old versions and tombstones are gone; other leads keep theirs.
 */
@MicronautTest
class ErasureTest extends ApiTest {

    @Inject
    Erasure erasure;

    String account;

    @BeforeAll
    void account() {
        account = RequestIds.next("acc_");
        directory.createAccount(account, "CDC erasure", null, ZoneId.of("UTC"), "USD");
    }

    private void lead(String id, String email, String phone) {
        sql("INSERT INTO leads (account_id, id, email, first_name, last_name, created_at, updated_at) VALUES ('" + account + "', '"
                        + id + "', '" + email + "', 'Grace', 'Hopperson', '2025-02-02T00:00:00Z', now())",
                "INSERT INTO lead_phones VALUES ('" + account + "', '" + id + "', '" + phone + "')",
                "INSERT INTO lead_tags VALUES ('" + account + "', '" + id + "', '!erase', now())");
        for (int i = 0; i < 3; i++) {
            sql("UPDATE leads SET first_name = 'Grace" + i + "', updated_at = now() WHERE account_id = '" + account + "' AND id = '" + id + "'");
        }
    }

    @Test
    void erasedLeadLeavesNothingInAnyClickHouseColumn() {
        // merges stay off while the lead is written, changed and redacted, so its old versions are surely there
        // when the erasure starts (a merge could fold them first and make this test prove nothing)
        merges("STOP");
        Erasure.Plan plan;
        try {
            lead("er1", "grace.erased@example.com", "+15550001111");
            lead("er2", "kept@example.com", "+15550002222");
            // this test runs the erasure itself: ErasureSweep (which erases what DELETE /leads redacts) leaves er1 alone
            sql("INSERT INTO cdc_erasures (account_id, lead_id) VALUES ('" + account + "', 'er1')");
            sql("UPDATE leads SET email = 'erased-er1@erased.invalid', first_name = NULL, last_name = NULL, erased = true, "
                            + "updated_at = now() WHERE account_id = '" + account + "' AND id = 'er1'",
                    "DELETE FROM lead_phones WHERE account_id = '" + account + "' AND lead_id = 'er1'");
            erasure.awaitStreamed();
            assertEquals(List.of(TestStack.get().clickhouseDatabase() + ".leads.email"), columnsHolding(null, "grace.erased@example.com"));
            // the phone's delete is streamed; wait until the view has caught up with it (an insert is visible to a
            // read only once ClickHouse has answered it, which the slot's confirmed position does not wait for)
            List<String> onlyRaw = List.of(TestStack.get().clickhouseDatabase() + ".lead_phones.phone");
            dev.attribution.server.support.ApiTest.await(() -> onlyRaw.equals(columnsHolding(null, "+15550001111")) ? true : null);
            // counted while merges are still off; a merge after START folds only rows the plan deletes anyway
            plan = erasure.plan(account, "er1");
        } finally {
            merges("START"); // mutations run in the merge pool
        }

        Map<String, Long> removed = plan.apply();

        assertTrue(removed.getOrDefault("leads", 0L) >= 4, removed.toString()); // insert + 3 updates, the redaction stays
        assertEquals(2L, removed.get("lead_phones"), removed.toString()); // the insert and the delete's tombstone
        for (String secret : List.of("grace.erased@example.com", "+15550001111", "Hopperson")) {
            assertEquals(List.of(), columnsHolding(secret.equals("Hopperson") ? "er1" : null, secret), secret + " is still in ClickHouse");
        }
        // the redaction stays as the lead's newest version; leads_current hides erased leads altogether (031_leads_erased)
        assertEquals("erased-er1@erased.invalid\t1", ch("SELECT argMax(email, _version), argMax(erased, _version) FROM {db}.leads "
                + "WHERE account_id = '" + account + "' AND id = 'er1'"));
        assertEquals(0, chLong("SELECT count() FROM {db}.leads_current WHERE account_id = '" + account + "' AND id = 'er1'"));
        assertEquals("kept@example.com", ch("SELECT email FROM {db}.leads_current WHERE account_id = '" + account + "' AND id = 'er2'"));
        assertEquals(1, chLong("SELECT count() FROM {db}.lead_tags_current WHERE account_id = '" + account + "' AND lead_id = 'er1'"));
        assertFalse(columnsHolding(null, "kept@example.com").isEmpty(), "other leads keep their data");
        assertFalse(columnsHolding(null, "+15550002222").isEmpty(), "other leads keep their data");
    }

    private static void merges(String startOrStop) {
        String db = TestStack.get().clickhouseDatabase();
        for (String table : List.of("leads", "lead_phones", "lead_tags")) {
            TestStack.get().clickhouse("SYSTEM " + startOrStop + " MERGES " + db + "." + table);
        }
    }

    /**
     * Every String-holding column (String, Nullable/LowCardinality, arrays of them) of every table in the ClickHouse
     * database, searched for {@code secret}; with {@code leadId}, only rows of that lead (for a value other leads share).
     */
    private List<String> columnsHolding(String leadId, String secret) {
        String db = TestStack.get().clickhouseDatabase();
        List<String> hits = new ArrayList<>();
        for (String line : ch("SELECT table, name, type FROM system.columns WHERE database = '" + db + "' AND type LIKE '%String%'").split("\n")) {
            String[] f = line.split("\t");
            String table = f[0];
            String column = f[1];
            String match = f[2].startsWith("Array(") ? "has(" + column + ", '" + secret + "')" : column + " = '" + secret + "'";
            String scope = "";
            if (leadId != null) {
                String columns = ch("SELECT groupArray(name) FROM system.columns WHERE database = '" + db + "' AND table = '" + table + "'");
                scope = columns.contains("'lead_id'") ? " AND lead_id = '" + leadId + "'" : table.startsWith("leads") ? " AND id = '" + leadId + "'" : "";
            }
            if (chLong("SELECT count() FROM " + db + "." + table + " WHERE " + match + scope) > 0) {
                hits.add(db + "." + table + "." + column);
            }
        }
        return hits;
    }
}
