package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.Response;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The hand-computed examples of {@link RoasReportTest} and {@link MarginalCacCurveTest} (their comments give every
 * number), written through the API as an integration partner writes them (issue 20), each into a new account, and
 * awaited until ClickHouse holds them. {@link RoasCurveCompatibilityTest} copies what these writes left in ClickHouse
 * onto two bare engines.
 */
final class ReportExamples {

    private ReportExamples() {
    }

    /**
     * RoasReportTest's example: POST /sources for the ad sets set1 and set2 (ad account acct1, campaign camp1), POST
     * /clicks naming the ads, POST /orders (L3's earlier order on 10-01, before any click of L3, makes its 11-20 sale a
     * returning customer's; the rebill is an isRebill item), the spend through the ad-spend import (ad4 registered by a
     * $0 row in August). Returns the account's key.
     */
    static String roas(ApiTest api) {
        String key = api.newUnthrottledAccount("UTC", Roles.ALL);
        for (String set : List.of("set1", "set2")) {
            JsonNode source = api.processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"Roas " + set + "\",\"integrationType\":\"FACEBOOK\","
                    + "\"adSourceId\":\"" + set + "\",\"accountId\":\"acct1\",\"campaignId\":\"camp1\"}", "CREATE_SOURCE_LINK");
            assertTrue(source.get("tag").asText().startsWith("@"), source.toString());
        }
        List<String> clicks = List.of(roasClick("L1", "2026-11-02T10:00:00Z", "set1", "ad1"),
                roasClick("L2", "2026-10-28T10:00:00Z", "set1", "ad2"), roasClick("L3", "2026-11-05T10:00:00Z", "set1", "ad1"),
                roasClick("L4", "2026-11-06T10:00:00Z", "set2", "ad3"), roasClick("L5", "2026-11-08T10:00:00Z", null, null));
        List<String> orders = List.of(roasOrder("L1", "s1", "2026-11-03T10:00:00Z", "100.00", false),
                roasOrder("L1", "s1r", "2026-11-10T10:00:00Z", "30.00", true), roasOrder("L2", "s2", "2026-11-04T10:00:00Z", "50.00", false),
                roasOrder("L3", "s3old", "2026-10-01T10:00:00Z", "15.00", false), roasOrder("L3", "s3", "2026-11-20T10:00:00Z", "80.00", false),
                roasOrder("L4", "s4", "2026-11-07T10:00:00Z", "200.00", false), roasOrder("L5", "s5", "2026-11-09T10:00:00Z", "500.00", false));
        // the clicks make the leads; then their orders (each a lead's own lane: applied in the order sent)
        api.awaitAllProcessed(key, clicks.stream().map(json -> api.sendWrite(key, "POST", "/api/v1.0/clicks", json)).toList());
        api.awaitAllProcessed(key, orders.stream().map(json -> api.sendWrite(key, "POST", "/api/v1.0/orders", json)).toList());
        Response spend = api.post(key, "/api/v1.0/ad-spend/import", """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,reported_conversions,reported_revenue
                FACEBOOK,acct1,camp1,set1,ad1,2026-11-02,40.00,0,0
                FACEBOOK,acct1,camp1,set1,ad1,2026-11-03,60.00,2,150.00
                FACEBOOK,acct1,camp1,set1,ad2,2026-11-04,25.00,0,0
                FACEBOOK,acct1,camp1,set2,ad3,2026-11-06,10.00,0,0
                FACEBOOK,acct1,camp1,set1,ad1,2026-10-20,999.00,5,5000.00
                FACEBOOK,acct1,camp1,set2,ad4,2026-08-15,0,0,0
                """);
        assertEquals(200, spend.status(), spend.raw());
        api.awaitWritesInClickHouse(key);
        return key;
    }

    private static String roasClick(String lead, String at, String set, String ad) {
        String paid = set == null ? "\"isOrganic\":true" : "\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"" + set + "\",\"adspendAdId\":\"" + ad + "\"";
        return "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"" + lead.toLowerCase() + "@roas.test\",\"date\":\"" + at + "\"," + paid + "}";
    }

    private static String roasOrder(String lead, String orderId, String at, String price, boolean rebill) {
        return "{\"email\":\"" + lead.toLowerCase() + "@roas.test\",\"orderId\":\"" + orderId + "\",\"date\":\"" + at
                + "\",\"items\":[{\"name\":\"Roas item\",\"price\":" + price + ",\"isRebill\":" + rebill + "}]}";
    }

    /** The curve example's account: its key, and the tag of the source of each of its ad sets. */
    record Curve(String key, Map<String, String> tags) {
    }

    /**
     * MarginalCacCurveTest's example: POST /sources for the ad sets m_set1 and m_set2 (ad account m_acct, campaign
     * m_camp1), POST /clicks naming the ads (adspendAdId), POST /orders (n01's rebill an isRebill item), the spend
     * through POST /ad-spend/import (which registers m_set3, m_camp2 and m_ad2).
     */
    static Curve curve(ApiTest api) {
        String key = api.newUnthrottledAccount("UTC", Roles.ALL);
        Map<String, String> tags = new HashMap<>();
        for (String[] set : new String[][]{{"m_set1", "Curve Set"}, {"m_set2", "Curve Other Set"}}) {
            JsonNode source = api.processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"" + set[1] + "\",\"integrationType\":\"FACEBOOK\","
                    + "\"adSourceId\":\"" + set[0] + "\",\"accountId\":\"m_acct\",\"campaignId\":\"m_camp1\"}", "CREATE_SOURCE_LINK");
            tags.put(set[0], source.get("tag").asText());
        }
        String[][] days = {{"01", "40", "n01"}, {"02", "9", "n02"}, {"03", "20", "n03a", "n03b"}, {"04", "11", "n04"},
                {"05", "39", "n05a", "n05b"}, {"06", "19", "n06"}, {"07", "10", "n07"}, {"08", "41", "n08"}, {"09", "21", "n09"}, {"10", null, "n10"}};
        StringBuilder spend = new StringBuilder("platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend\n");
        List<String> clicks = new ArrayList<>();
        List<String> orders = new ArrayList<>();
        for (String[] d : days) {
            if (d[1] != null) {
                spend.append("FACEBOOK,m_acct,m_camp1,m_set1,m_ad1,2026-01-").append(d[0]).append(',').append(d[1]).append('\n');
            }
            for (int i = 2; i < d.length; i++) {
                String lead = d[i];
                clicks.add(curveClick(tags, lead, "2026-01-" + d[0] + "T10:00:00Z", "m_set1", "m_ad1"));
                if (!lead.equals("n02")) {
                    orders.add(curveOrder(lead, "o" + lead, "2026-01-" + d[0] + "T11:00:00Z", "50.00", false));
                }
            }
        }
        clicks.add(curveClick(tags, "n02", "2026-01-03T09:00:00Z", "m_set2", "m_other"));
        clicks.add(curveClick(tags, "r1", "2026-01-05T08:00:00Z", "m_set1", "m_ad1"));
        orders.add(curveOrder("n02", "on02", "2026-01-03T12:00:00Z", "50.00", false));
        orders.add(curveOrder("n01", "on01r", "2026-01-11T11:00:00Z", "20.00", true));
        orders.add(curveOrder("n01", "on01b", "2026-02-15T11:00:00Z", "30.00", false));
        orders.add(curveOrder("r1", "or1old", "2025-12-01T09:00:00Z", "15.00", false));
        orders.add(curveOrder("r1", "or1", "2026-01-05T09:00:00Z", "70.00", false));
        spend.append("FACEBOOK,m_acct,m_camp1,m_set1,m_ad1,2026-02-01,500.00\n");
        for (int i = 1; i <= 4; i++) {
            spend.append("FACEBOOK,m_acct,m_camp2,m_set3,m_ad2,2026-01-0").append(i).append(',').append(4 + i).append('\n');
        }
        // the clicks make the leads; then their orders (bulk: sent together, awaited once)
        api.awaitAllProcessed(key, clicks.stream().map(json -> api.sendWrite(key, "POST", "/api/v1.0/clicks", json)).toList());
        api.awaitAllProcessed(key, orders.stream().map(json -> api.sendWrite(key, "POST", "/api/v1.0/orders", json)).toList());
        Response imported = api.post(key, "/api/v1.0/ad-spend/import", spend.toString());
        assertEquals(200, imported.status(), imported.raw());
        assertEquals(14, imported.body().get("result").get("spendRows").asInt(), imported.raw());
        api.awaitWritesInClickHouse(key);
        return new Curve(key, Map.copyOf(tags));
    }

    private static String curveClick(Map<String, String> tags, String lead, String at, String set, String ad) {
        return "{\"referrerUrl\":\"https://shop.curve.test/\",\"sourceLinkTag\":\"" + tags.get(set) + "\",\"email\":\""
                + lead + "@curve.test\",\"date\":\"" + at
                + "\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"" + set + "\",\"adspendAdId\":\"" + ad + "\"}";
    }

    private static String curveOrder(String lead, String orderId, String at, String price, boolean rebill) {
        return "{\"email\":\"" + lead + "@curve.test\",\"orderId\":\"" + orderId + "\",\"date\":\"" + at
                + "\",\"items\":[{\"name\":\"Curve item\",\"price\":" + price + ",\"isRebill\":" + rebill + "}]}";
    }
}
