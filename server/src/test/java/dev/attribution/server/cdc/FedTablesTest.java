package dev.attribution.server.cdc;

import dev.attribution.api.RequestIds;
import dev.attribution.cdc.resync.CdcCheck;
import dev.attribution.cdc.resync.CdcResync;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;

import static dev.attribution.server.cdc.CdcTesting.awaitClean;
import static dev.attribution.server.cdc.CdcTesting.ch;
import static dev.attribution.server.cdc.CdcTesting.sql;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The tables materialized views fill from streamed ones (062 clicks_by_ad, 063 conversion_touches_by_ad, 064
 * clicks_by_lead): every
 * streamed version reaches them, an update of a click (its lead) is read back by their dedup rule, and
 * {@code cdc resync} of the source table also drops the rows it drops there — a click ClickHouse holds but
 * PostgreSQL does not is gone from clicks_by_ad and clicks_by_lead after the resync, as from clicks.
 */
@MicronautTest(transactional = false)
class FedTablesTest extends ApiTest {

    @Inject
    CdcCheck check;

    @Inject
    CdcResync resync;

    @Test
    void clicksByAdFollowsClicksThroughUpdatesAndResync() {
        String acc = RequestIds.next("acc_");
        directory.createAccount(acc, "Fed tables", null, ZoneId.of("UTC"), "USD");
        String a = "'" + acc + "'";
        sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES (" + a + ", 'L1', 'l1@x.test', now(), now()), "
                        + "(" + a + ", 'L2', 'l2@x.test', now(), now())",
                "INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, is_organic, integration_type, adspend_ad_id, ad_source_id, created_at) "
                        + "VALUES (" + a + ", 'k1', NULL, '2026-10-05 10:00:00+00', 'https://x.test', false, 'FACEBOOK', 'adF', 'setF', now()), "
                        + "(" + a + ", 'k2', 'L1', '2026-10-06 10:00:00+00', 'https://x.test', true, 'GOOGLE', NULL, 'srcG', now())");
        sql("UPDATE clicks SET lead_id = 'L2' WHERE account_id = " + a + " AND id = 'k1'",
                "INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price, "
                        + "discount, taxes, shipping, hard_cost, cost_of_goods, currency, usd_price, recurring, first_sale, sale_date, created_at, updated_at) "
                        + "VALUES (" + a + ", 's1', 'o1', 'L2', 'L2', 'P', 0, 1, 10, 10, 0, 0, 0, 0, 0, 'USD', 10, false, true, "
                        + "'2026-10-07 10:00:00+00', now(), now())");
        awaitClean(check, Duration.ofSeconds(60));

        // the click's ad (adspend_ad_id, else ad_source_id) and platform are the key; the lead is the newest version's
        assertEquals("adF\tFACEBOOK\tk1\tL2\t0\nsrcG\tGOOGLE\tk2\tL1\t1", current(a));
        // clicks_by_lead: only the versions with a lead (k1's first version had none), keyed by the lead's hashes
        assertEquals("L1\tk2\tGOOGLE\tsrcG\t1\t1\nL2\tk1\tFACEBOOK\tadF\t0\t1", byLead(a));
        assertEquals("0", ch("SELECT count() FROM {db}.clicks_by_lead WHERE account_id = " + a + " AND lead_id = ''"));
        assertEquals("SALE\tadF\tFACEBOOK\ts1\tL2", ch("SELECT DISTINCT conversion_type, ad, platform, conversion_id, lead_id FROM "
                + "{db}.conversion_touches_by_ad WHERE account_id = " + a + " ORDER BY ad"));

        // a click ClickHouse holds but PostgreSQL never had (a lost delete): the view copies it into clicks_by_ad too
        clickhouse("INSERT INTO {db}.clicks (account_id, id, lead_id, click_date, tracked_url, integration_type, adspend_ad_id, created_at, "
                + "_version, is_deleted) VALUES (" + a + ", 'ghost', 'L1', '2026-10-08 10:00:00', 'https://x.test', 'FACEBOOK', 'adF', "
                + "'2026-10-08 10:00:00', 1, 0)");
        assertEquals("adF\tFACEBOOK\tghost\tL1\t0\nadF\tFACEBOOK\tk1\tL2\t0\nsrcG\tGOOGLE\tk2\tL1\t1", current(a));
        assertEquals("L1\tghost\tFACEBOOK\tadF\t0\t1\nL1\tk2\tGOOGLE\tsrcG\t1\t1\nL2\tk1\tFACEBOOK\tadF\t0\t1", byLead(a));
        resync.run("clicks", null, CdcResync.Progress.NONE);
        assertEquals("adF\tFACEBOOK\tk1\tL2\t0\nsrcG\tGOOGLE\tk2\tL1\t1", current(a));
        assertEquals("L1\tk2\tGOOGLE\tsrcG\t1\t1\nL2\tk1\tFACEBOOK\tadF\t0\t1", byLead(a));
        assertEquals("0", ch("SELECT count() FROM {db}.clicks WHERE account_id = " + a + " AND id = 'ghost'"));
    }

    /** clicks_by_ad of the account through its dedup rule: ad, platform, id, lead, is_organic. */
    private static String current(String a) {
        return ch("SELECT ad, platform, id, argMax(lead_id, _version), argMax(is_organic, _version) FROM {db}.clicks_by_ad WHERE account_id = "
                + a + " GROUP BY account_id, ad, platform, click_date, id HAVING argMax(is_deleted, _version) = 0 ORDER BY ad, id");
    }

    /**
     * clicks_by_lead of the account through its dedup rule: lead, id, platform, ad, is_organic, and whether every
     * version's hashes are right (lead_key, lead_check of the lead; ad_key of platform and ad, 065).
     */
    private static String byLead(String a) {
        return ch("SELECT lead_id, id, platform, ad, argMax(is_organic, _version), lead_key = cityHash64(lead_id) AND lead_check = farmHash64(lead_id) "
                + "AND min(ad_key = cityHash64(platform, ad)) = 1 "
                + "FROM {db}.clicks_by_lead WHERE account_id = " + a + " GROUP BY account_id, lead_id, lead_key, lead_check, click_date, id, platform, ad "
                + "HAVING argMax(is_deleted, _version) = 0 ORDER BY lead_id, id");
    }

    private static void clickhouse(String statement) {
        TestStack.get().clickhouse(statement.replace("{db}", TestStack.get().clickhouseDatabase()));
    }
}
