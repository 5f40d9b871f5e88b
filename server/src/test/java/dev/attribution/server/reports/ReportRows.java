package dev.attribution.server.reports;

import dev.attribution.clickhouse.ClickHouseGateway;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

/**
 * Hand-built rows written straight into ClickHouse's streamed tables (the rows the CDC sink would write). Only for
 * RoasCurveCompatibilityTest, which runs the report SQL on two bare engines without the API; report tests on the
 * real stack write their data through the API (issue 20).
 */
final class ReportRows {

    private final ClickHouseGateway clickHouse;
    private final String accountId;
    private final StringBuilder ads = new StringBuilder();
    private final StringBuilder clicks = new StringBuilder();
    private final StringBuilder sales = new StringBuilder();
    private final StringBuilder spend = new StringBuilder();
    private final StringBuilder sets = new StringBuilder();
    private final StringBuilder campaigns = new StringBuilder();
    private final StringBuilder accounts = new StringBuilder();

    ReportRows(ClickHouseGateway clickHouse, String accountId) {
        this.clickHouse = clickHouse;
        this.accountId = accountId;
    }

    private String row(String fields) {
        return "{\"account_id\":\"" + accountId + "\"," + fields + ",\"_version\":1,\"is_deleted\":0}\n";
    }

    ReportRows ad(String adId, String setId, String campaignId, String adAccountId) {
        ads.append(row("\"platform\":\"FACEBOOK\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"" + adAccountId + "\",\"campaign_id\":\""
                + campaignId + "\",\"ad_set_id\":\"" + setId + "\",\"name\":\"Ad " + adId + "\",\"created_at\":\"2025-10-01 00:00:00\""));
        return this;
    }

    ReportRows adSet(String setId, String campaignId, String adAccountId, String name) {
        sets.append(row("\"platform\":\"FACEBOOK\",\"ad_set_id\":\"" + setId + "\",\"ad_account_id\":\"" + adAccountId
                + "\",\"campaign_id\":\"" + campaignId + "\",\"name\":\"" + name + "\",\"created_at\":\"2025-10-01 00:00:00\""));
        return this;
    }

    ReportRows campaign(String campaignId, String adAccountId, String name) {
        campaigns.append(row("\"platform\":\"FACEBOOK\",\"campaign_id\":\"" + campaignId + "\",\"ad_account_id\":\"" + adAccountId
                + "\",\"name\":\"" + name + "\",\"created_at\":\"2025-10-01 00:00:00\""));
        return this;
    }

    ReportRows adAccount(String adAccountId, String name) {
        accounts.append(row("\"platform\":\"FACEBOOK\",\"ad_account_id\":\"" + adAccountId + "\",\"name\":\"" + name
                + "\",\"created_at\":\"2025-10-01 00:00:00\""));
        return this;
    }

    /** A paid click on {@code adId} (empty: organic, no ad) at {@code at} ("yyyy-MM-dd HH:mm:ss", UTC). */
    ReportRows click(String id, String lead, String at, String adId) {
        boolean organic = adId.isEmpty();
        clicks.append(row("\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"click_date\":\"" + at + "\",\"is_organic\":"
                + (organic ? 1 : 0) + ",\"integration_type\":\"" + (organic ? "" : "FACEBOOK") + "\",\"adspend_ad_id\":\""
                + adId + "\",\"created_at\":\"" + at + "\""));
        return this;
    }

    ReportRows sale(String id, String lead, String at, String price, boolean recurring, boolean first) {
        sales.append(row("\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead + "\",\"quantity\":1,\"price\":"
                + new BigDecimal(price) + ",\"currency\":\"USD\",\"recurring\":" + (recurring ? 1 : 0) + ",\"first_sale\":"
                + (first ? 1 : 0) + ",\"sale_date\":\"" + at + "\",\"updated_at\":\"" + at + "\",\"deleted\":0"));
        return this;
    }

    ReportRows spend(String adId, String setId, String campaignId, String adAccountId, String day, String amount,
                     String reportedConversions, String reportedRevenue) {
        spend.append(row("\"platform\":\"FACEBOOK\",\"ad_id\":\"" + adId + "\",\"day\":\"" + day + "\",\"ad_account_id\":\""
                + adAccountId + "\",\"campaign_id\":\"" + campaignId + "\",\"ad_set_id\":\"" + setId + "\",\"spend\":"
                + new BigDecimal(amount) + ",\"reported_conversions\":" + new BigDecimal(reportedConversions)
                + ",\"reported_revenue\":" + new BigDecimal(reportedRevenue) + ",\"currency\":\"USD\",\"updated_at\":\"2025-10-01 00:00:00\""));
        return this;
    }

    void write() {
        insert("ads", ads);
        insert("ad_sets", sets);
        insert("ad_campaigns", campaigns);
        insert("ad_accounts", accounts);
        insert("clicks", clicks);
        insert("sales", sales);
        insert("ad_spend_daily", spend);
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, accountId);
    }

    private void insert(String table, StringBuilder rows) {
        if (rows.length() > 0) {
            clickHouse.insertJsonEachRow(table, rows.toString().getBytes(StandardCharsets.UTF_8));
        }
    }
}
