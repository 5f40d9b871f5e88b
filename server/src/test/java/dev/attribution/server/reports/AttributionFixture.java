package dev.attribution.server.reports;

import dev.attribution.clickhouse.ClickHouseGateway;

import javax.sql.DataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;

/**
 * A small hand-built account for the option tests (UTC, FACEBOOK), inserted as the CDC sink would write it.
 * <pre>
 * ad account act1 "Main": campaign camp1 "Camp 1" → set1 "Set 1" → adA "Ad A" (created 10-01), adB "Ad B" (10-02);
 *                         camp1 → set2 "Set 2" → adC "Ad C" (10-03).   act2: camp2 → set3 → adD.
 * leads: L1 stage Hot, L2 stage Cold, L3 none.  clicks: L1→adA 11-02 10:00, L2→adB 11-09 10:00, L3→adC 11-16 10:00
 * (L3's click carries tag "gone" of a deleted source link).
 * sales: s1 L1 11-03 12:00 100.00 first, taxes 5, shipping 10, cogs 20, hard cost 2, refunded 30.00;
 *        s2 L1 11-10 12:00 50.00 rebill; s3 L2 11-09 12:00 80.00 not first; s4 L3 11-17 12:00 40.00 first.
 * calls: L2 11-09 13:00 qualified; L3 11-17 13:00 NO_SHOW (not qualified).
 * spend: adA 11-02 10.00, adA 11-10 20.00, adB 11-09 40.00, adD 11-05 5.00.
 * </pre>
 */
final class AttributionFixture {

    private AttributionFixture() {
    }

    static void load(ClickHouseGateway clickHouse, DataSource dataSource, String acc) throws Exception {
        StringBuilder ads = new StringBuilder();
        ads.append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_id\":\"adA\",\"ad_account_id\":\"act1\",\"campaign_id\":\"camp1\",\"ad_set_id\":\"set1\",\"name\":\"Ad A\",\"created_at\":\"2026-10-01 00:00:00\""));
        ads.append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_id\":\"adB\",\"ad_account_id\":\"act1\",\"campaign_id\":\"camp1\",\"ad_set_id\":\"set1\",\"name\":\"Ad B\",\"created_at\":\"2026-10-02 00:00:00\""));
        ads.append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_id\":\"adC\",\"ad_account_id\":\"act1\",\"campaign_id\":\"camp1\",\"ad_set_id\":\"set2\",\"name\":\"Ad C\",\"created_at\":\"2026-10-03 00:00:00\""));
        ads.append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_id\":\"adD\",\"ad_account_id\":\"act2\",\"campaign_id\":\"camp2\",\"ad_set_id\":\"set3\",\"name\":\"Ad D\",\"created_at\":\"2026-10-04 00:00:00\""));
        insert(clickHouse, "ads", ads);
        insert(clickHouse, "ad_sets", new StringBuilder()
                .append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_set_id\":\"set1\",\"ad_account_id\":\"act1\",\"campaign_id\":\"camp1\",\"name\":\"Set 1\",\"created_at\":\"2026-10-01 00:00:00\""))
                .append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_set_id\":\"set2\",\"ad_account_id\":\"act1\",\"campaign_id\":\"camp1\",\"name\":\"Set 2\",\"created_at\":\"2026-10-01 00:00:00\"")));
        insert(clickHouse, "ad_campaigns", new StringBuilder()
                .append(row(acc, "\"platform\":\"FACEBOOK\",\"campaign_id\":\"camp1\",\"ad_account_id\":\"act1\",\"name\":\"Camp 1\",\"created_at\":\"2026-10-01 00:00:00\"")));
        insert(clickHouse, "ad_accounts", new StringBuilder()
                .append(row(acc, "\"platform\":\"FACEBOOK\",\"ad_account_id\":\"act1\",\"name\":\"Main\",\"created_at\":\"2026-10-01 00:00:00\"")));
        insert(clickHouse, "leads", new StringBuilder()
                .append(row(acc, "\"id\":\"L1\",\"email\":\"l1@x.test\",\"stage_name\":\"Hot\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\""))
                .append(row(acc, "\"id\":\"L2\",\"email\":\"l2@x.test\",\"stage_name\":\"Cold\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\""))
                .append(row(acc, "\"id\":\"L3\",\"email\":\"l3@x.test\",\"stage_name\":\"\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\"")));
        insert(clickHouse, "clicks", new StringBuilder()
                .append(click(acc, "k1", "L1", "adA", "2026-11-02 10:00:00", "t1"))
                .append(click(acc, "k2", "L2", "adB", "2026-11-09 10:00:00", "t1"))
                .append(click(acc, "k3", "L3", "adC", "2026-11-16 10:00:00", "gone")));
        insert(clickHouse, "source_links", new StringBuilder()
                .append(row(acc, "\"id\":\"sl1\",\"tag\":\"gone\",\"name\":\"Gone\",\"platform\":\"FACEBOOK\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\",\"deleted_at\":\"2026-11-01 00:00:00\""))
                .append(row(acc, "\"id\":\"sl2\",\"tag\":\"t1\",\"name\":\"Live\",\"platform\":\"FACEBOOK\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\",\"deleted_at\":null")));
        insert(clickHouse, "sales", new StringBuilder()
                .append(sale(acc, "s1", "L1", "2026-11-03 12:00:00", "100.00", 0, 1, "5.00", "10.00", "20.00", "2.00", 1, "30.00"))
                .append(sale(acc, "s2", "L1", "2026-11-10 12:00:00", "50.00", 1, 0, "0", "0", "0", "0", 0, "0"))
                .append(sale(acc, "s3", "L2", "2026-11-09 12:00:00", "80.00", 0, 0, "0", "0", "0", "0", 0, "0"))
                .append(sale(acc, "s4", "L3", "2026-11-17 12:00:00", "40.00", 0, 1, "0", "0", "0", "0", 0, "0")));
        insert(clickHouse, "calls", new StringBuilder()
                .append(row(acc, "\"id\":\"c1\",\"lead_id\":\"L2\",\"qualified\":1,\"state\":\"QUALIFIED\",\"first_call\":1,\"call_date\":\"2026-11-09 13:00:00\",\"updated_at\":\"2026-11-09 13:00:00\",\"deleted\":0"))
                .append(row(acc, "\"id\":\"c2\",\"lead_id\":\"L3\",\"qualified\":0,\"state\":\"NO_SHOW\",\"first_call\":1,\"call_date\":\"2026-11-17 13:00:00\",\"updated_at\":\"2026-11-17 13:00:00\",\"deleted\":0")));
        insert(clickHouse, "ad_spend_daily", new StringBuilder()
                .append(spend(acc, "adA", "act1", "camp1", "set1", "2026-11-02", "10.00"))
                .append(spend(acc, "adA", "act1", "camp1", "set1", "2026-11-10", "20.00"))
                .append(spend(acc, "adB", "act1", "camp1", "set1", "2026-11-09", "40.00"))
                .append(spend(acc, "adD", "act2", "camp2", "set3", "2026-11-05", "5.00")));
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, acc);
        try (Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, ?)")) {
            for (String[] s : new String[][]{{"st1", "Hot"}, {"st2", "Cold"}}) {
                ps.setString(1, acc);
                ps.setString(2, s[0]);
                ps.setString(3, s[1]);
                ps.setTimestamp(4, Timestamp.from(Instant.parse("2026-10-01T00:00:00Z")));
                ps.executeUpdate();
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        }
    }

    private static String click(String acc, String id, String lead, String ad, String at, String tag) {
        return row(acc, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"click_date\":\"" + at + "\",\"is_organic\":0,"
                + "\"integration_type\":\"FACEBOOK\",\"adspend_ad_id\":\"" + ad + "\",\"source_link_tag\":\"" + tag + "\",\"created_at\":\"" + at + "\"");
    }

    private static String sale(String acc, String id, String lead, String at, String price, int recurring, int first,
                               String taxes, String shipping, String cogs, String hard, int refunded, String refundedAmount) {
        return row(acc, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead + "\",\"quantity\":1,\"price\":" + price
                + ",\"taxes\":" + taxes + ",\"shipping\":" + shipping + ",\"cost_of_goods\":" + cogs + ",\"hard_cost\":" + hard
                + ",\"currency\":\"USD\",\"recurring\":" + recurring + ",\"first_sale\":" + first + ",\"refunded\":" + refunded
                + ",\"refunded_amount\":" + refundedAmount + ",\"sale_date\":\"" + at + "\",\"updated_at\":\"" + at + "\",\"deleted\":0");
    }

    private static String spend(String acc, String ad, String act, String camp, String set, String day, String amount) {
        return row(acc, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + ad + "\",\"day\":\"" + day + "\",\"ad_account_id\":\"" + act
                + "\",\"campaign_id\":\"" + camp + "\",\"ad_set_id\":\"" + set + "\",\"spend\":" + amount
                + ",\"currency\":\"USD\",\"updated_at\":\"2026-11-01 00:00:00\"");
    }

    private static String row(String accountId, String fields) {
        return "{\"account_id\":\"" + accountId + "\"," + fields + ",\"_version\":1,\"is_deleted\":0}\n";
    }

    private static void insert(ClickHouseGateway clickHouse, String table, StringBuilder rows) {
        clickHouse.insertJsonEachRow(table, rows.toString().getBytes(StandardCharsets.UTF_8));
    }
}
