package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.Response;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One seeded data set of {@link RoasCurvePropertyTest}: its account key, its random source (the checks go on drawing
 * from it), its plan ({@link #generate}) and, once written through the API as a partner writes it ({@link #write}),
 * its rows with the ids the API gave them.
 */
final class RoasCurveDataSet {

    record Ad(String id, String set, String campaign, String account) {
    }

    record Click(String id, String lead, Instant at, String ad) {
    }

    record Sale(String id, String lead, Instant at, long cents, boolean recurring, boolean first) {
    }

    record Spend(String ad, LocalDate day, long cents, long reportedCents, long reportedRevenueCents) {
    }

    /** A click as planned, before the API gave it its id. */
    record PlannedClick(String lead, Instant at, String ad) {
    }

    final int seed;
    final Random rnd;
    final ZoneId zone;
    String key;
    final List<Ad> ads = new ArrayList<>();
    final List<PlannedClick> planned = new ArrayList<>();
    final List<Click> clicks = new ArrayList<>();
    final List<Sale> sales = new ArrayList<>();
    final List<Spend> spend = new ArrayList<>();
    /** Ad set id → the tag of its source. */
    final Map<String, String> tags = new HashMap<>();

    RoasCurveDataSet(int seed) {
        this.seed = seed;
        this.rnd = new Random(1000 + seed);
        this.zone = ZoneId.of(seed % 2 == 0 ? "America/New_York" : "UTC");
    }

    /** The plan of one data set (the same draws from {@code rnd} as when its rows were inserted by hand). */
    void generate() {
        for (int c = 0; c < 2; c++) {
            for (int s = 0; s < 2; s++) {
                for (int a = 0; a < 2; a++) {
                    ads.add(new Ad("ad" + c + s + a, "set" + c + s, "camp" + c, c == 0 ? "acctA" : "acctB"));
                }
            }
        }
        Instant base = Instant.parse("2026-09-20T00:00:00Z");
        int span = 50 * 86400;
        int leads = 30 + rnd.nextInt(30);
        for (int l = 0; l < leads; l++) {
            String lead = "lead" + l;
            int n = 1 + rnd.nextInt(4);
            for (int i = 0; i < n; i++) {
                String ad = rnd.nextInt(4) == 0 ? "" : ads.get(rnd.nextInt(ads.size())).id();
                planned.add(new PlannedClick(lead, base.plusSeconds(rnd.nextInt(span)), ad));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                times.add(base.plusSeconds(rnd.nextInt(span)));
            }
            times.sort(null);
            boolean existing = rnd.nextInt(5) == 0;
            if (existing && m > 0) {
                // the order that makes the lead an existing customer: before any click, so credited to none
                sales.add(new Sale("o" + l + "_old", lead, Instant.parse("2026-08-01T00:00:00Z").plusSeconds(60L * l), 1000, false, true));
            }
            for (int i = 0; i < m; i++) {
                sales.add(new Sale("o" + l + "_" + i, lead, times.get(i), 100 + rnd.nextInt(30000), i > 0 && rnd.nextBoolean(), i == 0 && !existing));
            }
        }
        for (Ad ad : ads) {
            for (int day = 0; day < 45; day++) {
                if (rnd.nextInt(3) == 0) {
                    continue;
                }
                spend.add(new Spend(ad.id(), LocalDate.parse("2026-09-25").plusDays(day), rnd.nextInt(8) == 0 ? 0 : 1 + rnd.nextInt(20000),
                        rnd.nextInt(500), rnd.nextInt(50000)));
            }
        }
    }

    /**
     * Writes every data set through the API: the sources, then the clicks (which make the leads), then the orders and
     * the spend import; each phase sent for all accounts, then awaited once; then waits for ClickHouse.
     */
    static void write(ApiTest api, List<RoasCurveDataSet> sets) {
        Map<RoasCurveDataSet, List<String>> pending = new java.util.LinkedHashMap<>();
        for (RoasCurveDataSet d : sets) {
            List<String> ids = new ArrayList<>();
            for (String set : d.ads.stream().map(Ad::set).distinct().toList()) {
                Ad first = d.ads.stream().filter(a -> a.set().equals(set)).findFirst().orElseThrow();
                ids.add(api.sendWrite(d.key, "POST", "/api/v1.0/sources", "{\"name\":\"Prop " + set + "\",\"integrationType\":\"FACEBOOK\","
                        + "\"adSourceId\":\"" + set + "\",\"accountId\":\"" + first.account() + "\",\"campaignId\":\"" + first.campaign() + "\"}"));
            }
            pending.put(d, ids);
        }
        pending.forEach((d, ids) -> {
            List<String> sets1 = d.ads.stream().map(Ad::set).distinct().toList();
            List<JsonNode> results = api.awaitAllProcessed(d.key, ids);
            for (int i = 0; i < sets1.size(); i++) {
                d.tags.put(sets1.get(i), results.get(i).get("tag").asText());
            }
        });
        pending.clear();
        for (RoasCurveDataSet d : sets) {
            List<String> ids = new ArrayList<>();
            for (PlannedClick c : d.planned) {
                StringBuilder body = new StringBuilder("{\"referrerUrl\":\"https://shop.prop.test/\",\"email\":\"").append(c.lead())
                        .append("@prop.test\",\"date\":\"").append(c.at()).append('"');
                if (c.ad().isEmpty()) {
                    body.append(",\"isOrganic\":true");
                } else {
                    String set = d.ads.stream().filter(a -> a.id().equals(c.ad())).findFirst().orElseThrow().set();
                    body.append(",\"sourceLinkTag\":\"").append(d.tags.get(set)).append("\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"")
                            .append(set).append("\",\"adspendAdId\":\"").append(c.ad()).append('"');
                }
                ids.add(api.sendWrite(d.key, "POST", "/api/v1.0/clicks", body.append('}').toString()));
            }
            pending.put(d, ids);
        }
        pending.forEach((d, ids) -> {
            List<JsonNode> results = api.awaitAllProcessed(d.key, ids);
            for (int i = 0; i < d.planned.size(); i++) {
                PlannedClick c = d.planned.get(i);
                d.clicks.add(new Click(results.get(i).get("id").asText(), c.lead(), c.at(), c.ad()));
            }
        });
        pending.clear();
        for (RoasCurveDataSet d : sets) {
            List<String> ids = new ArrayList<>();
            for (Sale s : d.sales) {
                ids.add(api.sendWrite(d.key, "POST", "/api/v1.0/orders", "{\"email\":\"" + s.lead() + "@prop.test\",\"orderId\":\"" + s.id()
                        + "\",\"date\":\"" + s.at() + "\",\"items\":[{\"name\":\"Prop item\",\"price\":" + BigDecimal.valueOf(s.cents(), 2).toPlainString()
                        + ",\"isRebill\":" + s.recurring() + "}]}"));
            }
            pending.put(d, ids);
            StringBuilder csv = new StringBuilder("platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend,reported_conversions,reported_revenue\n");
            for (Spend sp : d.spend) {
                Ad ad = d.ads.stream().filter(a -> a.id().equals(sp.ad())).findFirst().orElseThrow();
                csv.append("FACEBOOK,").append(ad.account()).append(',').append(ad.campaign()).append(',').append(ad.set()).append(',')
                        .append(ad.id()).append(',').append(sp.day()).append(',').append(BigDecimal.valueOf(sp.cents(), 2).toPlainString()).append(',')
                        .append(BigDecimal.valueOf(sp.reportedCents(), 2).toPlainString()).append(',')
                        .append(BigDecimal.valueOf(sp.reportedRevenueCents(), 2).toPlainString()).append('\n');
            }
            Response imported = api.post(d.key, "/api/v1.0/ad-spend/import", csv.toString());
            assertEquals(200, imported.status(), imported.raw());
            assertEquals(d.spend.size(), imported.body().get("result").get("spendRows").asInt(), imported.raw());
        }
        pending.forEach((d, ids) -> api.awaitAllProcessed(d.key, ids));
        api.awaitCdcCaughtUp();
    }
}
