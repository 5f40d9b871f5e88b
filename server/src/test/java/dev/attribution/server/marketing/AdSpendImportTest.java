package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.command.adspend.SpendImport;
import dev.attribution.command.imports.ImportFileException;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ad-spend import (docs/ad-spend-import.md) and the ad hierarchy reads it feeds (4.5, 4.8, 4.13). */
@MicronautTest(transactional = false)
class AdSpendImportTest extends MarketingApiTest {

    static final String CSV = """
            platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,impressions,clicks,video_views,reported_conversions,reported_revenue,currency
            FACEBOOK,act_1,c_1,as_1,ad_1,2026-01-01,10.50,1000,20,5,1,40.00,USD
            FACEBOOK,act_1,c_1,as_1,ad_1,2026-01-02,11.25,1100,22,6,2,80.00,USD
            FACEBOOK,act_1,c_1,as_2,ad_2,2026-01-01,5.00,500,10,0,0,0,USD
            google,gads_9,gc_1,ag_1,gad_1,2026-01-01,7.75,700,7,0,1,25.50,
            """;

    @Inject
    SpendImport spendImport;

    String accountOf(String key) {
        return directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
    }

    static String scalar(String sql) {
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void csvImportCreatesTheHierarchyAndDailySpend() {
        String key = newAccount();
        String account = accountOf(key);
        SpendImport.Result r = spendImport.importFile(account, new StringReader(CSV), SpendImport.Progress.NONE);
        assertEquals(4, r.rows());
        assertEquals(4, r.spendRows());
        assertEquals(2, r.adAccounts());
        assertEquals(2, r.campaigns());
        assertEquals(3, r.adSets());
        assertEquals(3, r.ads());
        assertEquals("34.50", scalar("SELECT sum(spend) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
        assertEquals("USD", scalar("SELECT currency FROM ad_spend_daily WHERE account_id = '" + account + "' AND ad_id = 'gad_1'"));
    }

    @Test
    void reimportReplacesAndNeverDoubles() {
        String account = accountOf(newAccount());
        spendImport.importFile(account, new StringReader(CSV), SpendImport.Progress.NONE);
        SpendImport.Result again = spendImport.importFile(account, new StringReader(CSV), SpendImport.Progress.NONE);
        assertEquals(0, again.spendRows(), "unchanged rows are not rewritten");
        assertEquals(0, again.ads());
        assertEquals("34.50", scalar("SELECT sum(spend) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
        assertEquals("4", scalar("SELECT count(*) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
        String corrected = CSV.replace("2026-01-02,11.25", "2026-01-02,1.25");
        spendImport.importFile(account, new StringReader(corrected), SpendImport.Progress.NONE);
        assertEquals("24.50", scalar("SELECT sum(spend) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
    }

    @Test
    void jsonLinesImportAndLastLineWinsWithinAFile() {
        String account = accountOf(newAccount());
        String jsonl = """
                {"platform":"TIKTOK","adAccountId":"tt_1","campaignId":"tc","adSetId":"tg","adId":"tad","date":"2026-02-01","spend":3}
                {"platform":"TIKTOK","ad_account_id":"tt_1","campaign_id":"tc","ad_set_id":"tg","ad_id":"tad","date":"2026-02-01","spend":4.5,"impressions":9}
                """;
        SpendImport.Result r = spendImport.importFile(account, new StringReader(jsonl), SpendImport.Progress.NONE);
        assertEquals(2, r.rows());
        assertEquals("4.50", scalar("SELECT spend FROM ad_spend_daily WHERE account_id = '" + account + "'"));
        assertEquals("9", scalar("SELECT impressions FROM ad_spend_daily WHERE account_id = '" + account + "'"));
    }

    @Test
    void aBadLineRejectsTheWholeFile() {
        String account = accountOf(newAccount());
        String bad = CSV + "FACEBOOK,act_1,c_1,as_1,ad_9,2026-13-01,1,0,0,0,0,0,USD\n";
        ImportFileException e = assertThrows(ImportFileException.class,
                () -> spendImport.importFile(account, new StringReader(bad), SpendImport.Progress.NONE));
        assertEquals("line 6: invalid date '2026-13-01', expected yyyy-MM-dd", e.getMessage());
        assertEquals("0", scalar("SELECT count(*) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
        assertEquals("0", scalar("SELECT count(*) FROM ads WHERE account_id = '" + account + "'"));
    }

    @Test
    void badValuesNameTheLine() {
        String account = accountOf(newAccount());
        String header = "platform,ad_account_id,ad_id,date,spend\n";
        assertEquals("line 2: invalid platform 'MYSPACE'. Accepted values: FACEBOOK, GOOGLE, GOOGLE_V2, TIKTOK, SNAPCHAT, "
                + "LINKEDIN, TWITTER, PINTEREST, BING, REDDIT, APPLOVIN, WHOP_ADS", assertThrows(ImportFileException.class,
                () -> spendImport.importFile(account, new StringReader(header + "MYSPACE,a,b,2026-01-01,1\n"), SpendImport.Progress.NONE)).getMessage());
        assertEquals("line 2: spend must be a non-negative number below 10^16", assertThrows(ImportFileException.class,
                () -> spendImport.importFile(account, new StringReader(header + "BING,a,b,2026-01-01,-1\n"), SpendImport.Progress.NONE)).getMessage());
        assertEquals("line 1: the header has no column spend", assertThrows(ImportFileException.class,
                () -> spendImport.importFile(account, new StringReader("platform,ad_account_id,ad_id,date\n"), SpendImport.Progress.NONE)).getMessage());
        assertEquals("line 2: missing adid", assertThrows(ImportFileException.class,
                () -> spendImport.importFile(account, new StringReader(header + "BING,a,,2026-01-01,1\n"), SpendImport.Progress.NONE)).getMessage());
    }

    @Test
    void httpImportNeedsTheRoleAndAnswersTheCounts() {
        String key = newAccount();
        Response r = post(key, "/api/v1.0/ad-spend/import", CSV);
        assertEquals(200, r.status(), r.raw());
        assertEquals(4, r.body().get("result").get("rows").asInt());
        Response bad = post(key, "/api/v1.0/ad-spend/import", "platform,ad_account_id,ad_id,date,spend\nX,a,b,2026-01-01,1\n");
        assertEquals(400, bad.status());
        assertTrue(bad.message().startsWith("line 2: invalid platform 'X'"), bad.raw());
        String noRole = newAccount("UTC", List.of(Roles.GET_ADS));
        Response forbidden = post(noRole, "/api/v1.0/ad-spend/import", CSV);
        assertEquals(403, forbidden.status());
        assertEquals("Forbidden, missing api key roles | Import Ad Spend", forbidden.message());
    }

    @Test
    void adminCliImportsAFile() throws Exception {
        String account = accountOf(newAccount());
        Path file = Files.createTempFile("spend", ".csv");
        Files.writeString(file, CSV);
        System.setProperty("datasources.default.url", TestStack.get().properties().get("datasources.default.url"));
        System.setProperty("datasources.default.username", TestStack.get().properties().get("datasources.default.username"));
        System.setProperty("datasources.default.password", TestStack.get().properties().get("datasources.default.password"));
        System.setProperty("flyway.datasources.default.enabled", "false");
        try {
            assertEquals(0, AdminCli.run(new String[]{"spend", "import", "--account", account, file.toString()}));
        } finally {
            System.clearProperty("flyway.datasources.default.enabled");
        }
        assertEquals("34.50", scalar("SELECT sum(spend) FROM ad_spend_daily WHERE account_id = '" + account + "'"));
    }

    @Test
    void adAccountsListWithFieldsAndPagingThatResets() {
        String key = newAccount();
        spendImport.importFile(accountOf(key), new StringReader(CSV), SpendImport.Progress.NONE);
        JsonNode all = get(key, "/api/v1.0/ad-accounts").body();
        assertEquals(2, all.get("result").size());
        assertTrue(all.get("nextPageId").isNull());
        JsonNode fb = get(key, "/api/v1.0/ad-accounts?ids=act_1").body().get("result");
        assertEquals("[{\"id\":\"act_1\",\"name\":\"\",\"type\":\"FACEBOOK\"}]", fb.toString());
        assertEquals("[{\"id\":\"act_1\",\"type\":\"FACEBOOK\"}]",
                get(key, "/api/v1.0/ad-accounts?ids=act_1&fields=type").body().get("result").toString());
        Response first = get(key, "/api/v1.0/ad-accounts?pageSize=1");
        String next = first.body().get("nextPageId").asText();
        JsonNode second = get(key, "/api/v1.0/ad-accounts?pageSize=1&pageId=" + enc(next)).body();
        assertFalse(second.get("result").get(0).get("id").asText().equals(first.body().get("result").get(0).get("id").asText()));
        JsonNode reset = get(key, "/api/v1.0/ad-accounts?pageSize=1&fields=name&pageId=" + enc(next)).body();
        assertEquals(first.body().get("result").get(0).get("id").asText(), reset.get("result").get(0).get("id").asText(),
                "a changed parameter resets paging to the first page");
        assertEquals(400, get(key, "/api/v1.0/ad-accounts?fields=budget").status());
        assertEquals("Invalid field: budget. Accepted values: name, type", get(key, "/api/v1.0/ad-accounts?fields=budget").message());
    }

    @Test
    void adsCarryEpochMillisAndTheirSource() throws Exception {
        String key = newAccount();
        long before = System.currentTimeMillis() - 1000;
        spendImport.importFile(accountOf(key), new StringReader(CSV), SpendImport.Progress.NONE);
        JsonNode status = write(key, "POST", "/api/v1.0/sources", """
                {"name":"FB prospecting","integrationType":"FACEBOOK","adSourceId":"as_1","accountId":"act_1","campaignId":"c_1"}""");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode ads = get(key, "/api/v1.0/ads?integrationType=FACEBOOK").body().get("result");
        assertEquals(2, ads.size());
        JsonNode ad1 = ads.get(0).get("adSource").get("adSourceId").asText().equals("ad_1") ? ads.get(0) : ads.get(1);
        assertTrue(ad1.get("creationDate").isIntegralNumber());
        assertTrue(ad1.get("creationDate").asLong() >= before);
        assertEquals("act_1", ad1.get("adSource").get("adAccountId").asText());
        assertEquals("@fb-prospecting", ad1.get("source").get("tag").asText());
        JsonNode ad2 = get(key, "/api/v1.0/ads?adSourceIds=" + list("ad_2")).body().get("result");
        assertEquals(1, ad2.size());
        assertFalse(ad2.get(0).has("source"));
        assertEquals(400, get(key, "/api/v1.0/ads?integrationType=MYSPACE").status());
    }

    @Test
    void keywordsByAdGroup() {
        String key = newAccount();
        String kw = """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,keyword_id,keyword,match_type
                GOOGLE,g1,c1,ag_1,ad_a,2026-01-01,1,kw_1,running shoes,EXACT
                GOOGLE,g1,c1,ag_2,ad_b,2026-01-01,1,kw_2,trail shoes,BROAD
                """;
        spendImport.importFile(accountOf(key), new StringReader(kw), SpendImport.Progress.NONE);
        JsonNode one = get(key, "/api/v1.0/keywords?adgroupId=ag_1").body().get("result");
        assertEquals(1, one.size());
        assertEquals("running shoes", one.get(0).get("keyword").asText());
        assertEquals(2, get(key, "/api/v1.0/keywords").body().get("result").size());
        assertEquals(0, get(key, "/api/v1.0/keywords?toDate=2020-01-01").body().get("result").size());
        assertEquals("fromDate cannot be later than toDate", get(key, "/api/v1.0/keywords?fromDate=2026-01-02&toDate=2026-01-01").message());
    }
}
