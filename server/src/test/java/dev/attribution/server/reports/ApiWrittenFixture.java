package dev.attribution.server.reports;

import dev.attribution.server.support.ApiTest.WriteRequest;

import java.util.List;

/**
 * The small hand-computed account of {@link AttributionOptionsTest} and {@link AdAccountAttributionTest} (UTC,
 * FACEBOOK), written only through the public API as an integration partner writes it: the spend file
 * ({@code POST /ad-spend/import}, {@link #SPEND}) first, then {@link #phases}.
 * <pre>
 * spend file: act1 → camp1 → set1 → adA 11-02 10.00, adA 11-10 20.00, adB 11-09 40.00;
 *             act1 → camp1 → set2 → adC 10-15 3.00 (before every range: adC is "paused");  act2 → camp2 → set3 → adD 11-05 5.00.
 *             The file names no names: ads, campaigns and ad accounts are unnamed (a row shows their id).
 * sources:    "Set 1" (tag @set-1) FACEBOOK adSourceId set1, act1, camp1: names the ad set "Set 1" and adds its source
 *             entry, the ad "set1" of act1 (docs/attribution-models.md "The ad hierarchy the API writes");
 *             "Gone" (@gone) hand-made, deleted after everything else.
 * leads:      L1 (l1@x.test) stage Hot, L2 stage Cold, L3 none.
 * clicks:     L1→adA 11-02 10:00 @set-1, L2→adB 11-09 10:00 @set-1, L3→adC (set2) 11-16 10:00 @gone.
 * orders:     o1 L1 11-03 12:00 one item 85.00 (cost of goods 20.00) + taxes 5.00 + shipping 10.00 = sale 100.00, hard cost 2.00,
 *             then refunded 30.00 (DELETE /orders/o1); o2 L1 11-10 12:00 50.00 rebill; o0 L2 10-20 12:00 15.00 (no click
 *             before it: credits no row, but makes L2's o3 no first sale); o3 L2 11-09 12:00 80.00; o4 L3 11-17 12:00 40.00.
 *             First sales (the documented rule): o1's and o4's; o0's too, outside every range.
 * calls:      L2 11-09 13:00 QUALIFIED; L3 11-17 13:00 NO_SHOW.
 * </pre>
 */
public final class ApiWrittenFixture {

    private ApiWrittenFixture() {
    }

    public static final String SPEND = """
            platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend
            FACEBOOK,act1,camp1,set1,adA,2026-11-02,10.00
            FACEBOOK,act1,camp1,set1,adA,2026-11-10,20.00
            FACEBOOK,act1,camp1,set1,adB,2026-11-09,40.00
            FACEBOOK,act1,camp1,set2,adC,2026-10-15,3.00
            FACEBOOK,act2,camp2,set3,adD,2026-11-05,5.00
            """;

    /** The writes after the spend file, in the phases they depend on (sources and leads, clicks, orders and calls, the rest). */
    public static List<List<WriteRequest>> phases(String key) {
        String clicks = "/api/v1.0/clicks";
        return List.of(
                List.of(new WriteRequest(key, "POST", "/api/v1.0/sources", "{\"name\":\"Set 1\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"set1\","
                                + "\"accountId\":\"act1\",\"campaignId\":\"camp1\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/sources", "{\"name\":\"Gone\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"l1@x.test\",\"stage\":\"Hot\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"l2@x.test\",\"stage\":\"Cold\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/leads", "{\"email\":\"l3@x.test\"}")),
                List.of(new WriteRequest(key, "POST", clicks, click("l1@x.test", "set1", "adA", "2026-11-02T10:00:00Z", "@set-1")),
                        new WriteRequest(key, "POST", clicks, click("l2@x.test", "set1", "adB", "2026-11-09T10:00:00Z", "@set-1")),
                        new WriteRequest(key, "POST", clicks, click("l3@x.test", "set2", "adC", "2026-11-16T10:00:00Z", "@gone"))),
                List.of(new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o1\",\"email\":\"l1@x.test\",\"date\":\"2026-11-03T12:00:00Z\","
                                + "\"taxes\":5.00,\"shippingCost\":10.00,\"hardCost\":2.00,"
                                + "\"items\":[{\"name\":\"Course one\",\"price\":85.00,\"costOfGoods\":20.00}]}"),
                        new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o2\",\"email\":\"l1@x.test\",\"date\":\"2026-11-10T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Course two\",\"price\":50.00,\"isRebill\":true}]}"),
                        new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o0\",\"email\":\"l2@x.test\",\"date\":\"2026-10-20T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Course zero\",\"price\":15.00}]}"),
                        new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o3\",\"email\":\"l2@x.test\",\"date\":\"2026-11-09T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Course three\",\"price\":80.00}]}"),
                        new WriteRequest(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"o4\",\"email\":\"l3@x.test\",\"date\":\"2026-11-17T12:00:00Z\","
                                + "\"items\":[{\"name\":\"Course four\",\"price\":40.00}]}"),
                        new WriteRequest(key, "POST", "/api/v1.0/calls", "{\"name\":\"Call L2\",\"email\":\"l2@x.test\",\"date\":\"2026-11-09T13:00:00Z\","
                                + "\"state\":\"QUALIFIED\"}"),
                        new WriteRequest(key, "POST", "/api/v1.0/calls", "{\"name\":\"Call L3\",\"email\":\"l3@x.test\",\"date\":\"2026-11-17T13:00:00Z\","
                                + "\"state\":\"NO_SHOW\"}")),
                List.of(new WriteRequest(key, "DELETE", "/api/v1.0/orders/o1?refundedAmount=30.00", null),
                        new WriteRequest(key, "DELETE", "/api/v1.0/sources/gone", null)));
    }

    /** A FACEBOOK click of {@code email} on ad {@code ad} of ad set {@code adSet}. */
    static String click(String email, String adSet, String ad, String date, String tag) {
        return "{\"referrerUrl\":\"https://shop.test/landing\",\"email\":\"" + email + "\",\"date\":\"" + date + "\",\"integrationType\":\"FACEBOOK\","
                + "\"adSourceId\":\"" + adSet + "\",\"adspendAdId\":\"" + ad + "\",\"sourceLinkTag\":\"" + tag + "\"}";
    }
}
