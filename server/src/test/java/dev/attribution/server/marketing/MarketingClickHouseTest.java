package dev.attribution.server.marketing;

import dev.attribution.command.adspend.SpendImport;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Daily spend, the ad hierarchy, sources and custom costs reach their ClickHouse tables and *_current views. */
@MicronautTest(transactional = false)
class MarketingClickHouseTest extends MarketingApiTest {

    @Inject
    SpendImport spendImport;

    static String ch(String sql) {
        return TestStack.get().clickhouse(sql + " FORMAT TabSeparated").trim();
    }

    @Test
    void spendStreamsIntoMonthPartitionsAndReimportDoesNotDouble() {
        String key = newAccount();
        String account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        String db = TestStack.get().clickhouseDatabase();
        spendImport.importFile(account, new StringReader(AdSpendImportTest.CSV.replace("2026-01-02,11.25", "2026-02-02,11.25")),
                SpendImport.Progress.NONE);
        ApiTest_await(() -> "4".equals(ch("SELECT count() FROM " + db + ".ad_spend_daily_current WHERE account_id = '" + account + "'")));
        assertEquals("34.50", ch("SELECT sum(spend) FROM " + db + ".ad_spend_daily_current WHERE account_id = '" + account + "'"));
        // other tests share the database: look only for this import's two months
        assertEquals("202601\n202602", ch("SELECT DISTINCT partition FROM system.parts WHERE database = '" + db
                + "' AND table = 'ad_spend_daily' AND active AND partition IN ('202601', '202602') ORDER BY partition"));
        spendImport.importFile(account, new StringReader(AdSpendImportTest.CSV.replace("2026-01-02,11.25", "2026-02-02,1.25")),
                SpendImport.Progress.NONE);
        ApiTest_await(() -> "24.50".equals(ch("SELECT sum(spend) FROM " + db + ".ad_spend_daily_current WHERE account_id = '" + account + "'")));
        ApiTest_await(() -> "3".equals(ch("SELECT count() FROM " + db + ".ads_current WHERE account_id = '" + account + "'")));
        assertEquals("2", ch("SELECT count() FROM " + db + ".ad_accounts_current WHERE account_id = '" + account + "'"));
        assertEquals("2", ch("SELECT count() FROM " + db + ".ad_campaigns_current WHERE account_id = '" + account + "'"));
        assertEquals("3", ch("SELECT count() FROM " + db + ".ad_sets_current WHERE account_id = '" + account + "'"));
    }

    @Test
    void sourcesAndCustomCostsStream() {
        String key = newAccount();
        String account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        String db = TestStack.get().clickhouseDatabase();
        write(key, "POST", "/api/v1.0/sources", "{\"name\":\"Podcast\",\"isOrganic\":true}");
        write(key, "POST", "/api/v1.0/custom-costs",
                "{\"name\":\"Fee\",\"startDate\":\"2026-01-01T08:00:00-05:00\",\"frequency\":\"DAILY\",\"cost\":20,\"tags\":[\"@podcast\"]}");
        ApiTest_await(() -> "@podcast\t1".equals(ch("SELECT tag, organic FROM " + db + ".source_links_current WHERE account_id = '" + account + "'")));
        ApiTest_await(() -> "20.00\t2026-01-01 08:00:00\t['@podcast']".equals(ch("SELECT cost, start_date, tags FROM " + db
                + ".custom_costs_current WHERE account_id = '" + account + "'")));
        write(key, "DELETE", "/api/v1.0/sources/@podcast", null);
        ApiTest_await(() -> "1".equals(ch("SELECT count() FROM " + db + ".source_links_current WHERE account_id = '" + account
                + "' AND deleted_at IS NOT NULL")));
    }

    private static void ApiTest_await(java.util.function.BooleanSupplier condition) {
        await(() -> condition.getAsBoolean() ? Boolean.TRUE : null);
    }
}
