package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution against a plain-Java oracle ({@link AttributionOracle}) over 24 seeded random data sets, each
 * queried under several (model, sourceConfiguration, window, level) combinations; every metric must match to the cent.
 * The events are inserted straight into ClickHouse's streamed tables (the rows the CDC sink would write).
 */
@MicronautTest(transactional = false)
class AttributionPropertyTest extends ApiTest {

    static final String[] MODELS = {"last_click", "first_click"};
    static final String[] CONFIGS = {"prioritize_paid", "all_sources", "only_paid", "only_organic", "prioritize_organic"};
    static final int[] WINDOWS = {0, 3};
    static final String[] DEPTHS = {"ad", "adset", "campaign"};
    static final String[] GROUPINGS = {"source_link", "day", "week", "month", "year", "source_link"};
    static final String[] NEW_CUSTOMERS = {"all_customers", "only_unique_customers", "only_returning_customers"};
    static final List<String> FIELDS = List.of("sales", "one_time_sales", "unique_sales", "unique_customers", "customers",
            "returning_customers", "revenue", "recurring_revenue", "total_revenue", "unique_customers_revenue", "leads",
            "clicks", "cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer", "cost_per_lead", "aov");
    static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

    @Inject
    ClickHouseGateway clickHouse;

    @Test
    void endpointMatchesOracle() {
        int combos = 0;
        for (int seed = 1; seed <= 24; seed++) {
            Random rnd = new Random(seed);
            String accountId = RequestIds.next("acc_");
            directory.createAccount(accountId, "Prop " + accountId, null, ZoneOffset.UTC, "USD");
            String key = ApiKeys.newKey();
            directory.createKey(accountId, ApiKeys.hash(key), Roles.ALL, false);
            AttributionOracle.Data data = generate(rnd, accountId);
            Instant start = Instant.parse("2026-11-05T00:00:00Z");
            Instant end = Instant.parse("2026-11-18T23:59:59Z");
            for (int k = 0; k < 6; k++) {
                String model = MODELS[(seed + k) % 2];
                String config = CONFIGS[(seed * 3 + k) % CONFIGS.length];
                int window = WINDOWS[(seed + k / 2) % 2];
                String depth = DEPTHS[(seed + k) % 3];
                String grouping = GROUPINGS[(seed + 2 * k) % GROUPINGS.length];
                String newCustomers = NEW_CUSTOMERS[(seed + k) % NEW_CUSTOMERS.length];
                boolean ignoreRecurring = (seed * 7 + k) % 4 == 0;
                Map<String, Map<String, Object>> expected = AttributionOracle.compute(data, depth, model, config, window,
                        start, end, LocalDate.parse("2026-11-05"), LocalDate.parse("2026-11-18"), newCustomers, ignoreRecurring, grouping);
                Set<String> ids = new LinkedHashSet<>();
                data.ads().forEach(a -> ids.add(AttributionOracle.entity(a, depth)));
                ids.add("missing-" + seed);
                String level = "facebook_" + depth;
                String query = "/api/v1.0/attribution?attributionModel=" + model + "&startDate=2026-11-05&endDate=2026-11-18&level="
                        + level + "&fields=" + String.join(",", FIELDS) + "&ids=" + list(ids.toArray(String[]::new))
                        + "&sourceConfiguration=" + config + "&windowAttributionDaysRange=" + window
                        + "&timeGroupingOption=" + grouping + "&newCustomerConfiguration=" + newCustomers
                        + "&ignoreRecurringSales=" + ignoreRecurring;
                Response r = get(key, query);
                String label = "seed " + seed + " " + model + " " + config + " window " + window + " " + level + " " + grouping
                        + " " + newCustomers + (ignoreRecurring ? " ignoreRecurringSales" : "");
                assertEquals(200, r.status(), label + ": " + r.raw());
                assertTrue(r.message().contains("missing-" + seed), label + ": " + r.raw());
                Map<String, JsonNode> actual = new HashMap<>();
                r.body().get("result").forEach(row -> actual.put(row.get("id").asText(), row));
                assertEquals(expected.keySet(), actual.keySet(), label + ": rows " + r.raw());
                for (var e : expected.entrySet()) {
                    JsonNode row = actual.get(e.getKey());
                    for (String f : FIELDS) {
                        Object want = e.getValue().get(f);
                        JsonNode got = row.get(f);
                        String where = label + " id " + e.getKey() + " " + f;
                        if (want == null) {
                            assertTrue(got == null || got.isNull(), where + ": expected null, got " + got);
                        } else {
                            assertNotNull(got, where);
                            assertEquals(0, new BigDecimal(want.toString()).compareTo(got.decimalValue()),
                                    where + ": expected " + want + ", got " + got);
                        }
                    }
                }
                combos++;
            }
            scientific(seed, data, key);
        }
        assertEquals(144, combos);
    }

    static final int[] SCIENTIFIC_DAYS = {30, 2, 7};

    /** Two scientific queries per data set against {@link ScientificOracle}: fractional counts to 1e-9, money to the cent. */
    private void scientific(int seed, AttributionOracle.Data data, String key) {
        for (int k = 0; k < 2; k++) {
            String config = CONFIGS[(seed + k * 2) % CONFIGS.length];
            int window = WINDOWS[(seed + k) % 2];
            int days = SCIENTIFIC_DAYS[(seed + k) % 3];
            String depth = DEPTHS[(seed * 2 + k) % 3];
            Map<String, Map<String, Object>> expected = ScientificOracle.compute(data, depth, config, window, days,
                    Instant.parse("2026-11-05T00:00:00Z"), Instant.parse("2026-11-18T23:59:59Z"), LocalDate.parse("2026-11-05"), LocalDate.parse("2026-11-18"));
            Set<String> ids = new LinkedHashSet<>();
            data.ads().forEach(a -> ids.add(AttributionOracle.entity(a, depth)));
            String query = "/api/v1.0/attribution?attributionModel=scientific&startDate=2026-11-05&endDate=2026-11-18&level=facebook_" + depth
                    + "&fields=" + String.join(",", FIELDS) + "&ids=" + list(ids.toArray(String[]::new)) + "&sourceConfiguration=" + config
                    + "&windowAttributionDaysRange=" + window + "&scientificDaysRange=" + days;
            Response r = get(key, query);
            String label = "seed " + seed + " scientific " + config + " window " + window + " days " + days + " " + depth;
            assertEquals(200, r.status(), label + ": " + r.raw());
            Map<String, JsonNode> actual = new HashMap<>();
            r.body().get("result").forEach(row -> actual.put(row.get("id").asText(), row));
            assertEquals(expected.keySet(), actual.keySet(), label + ": rows " + r.raw());
            for (var e : expected.entrySet()) {
                for (String f : FIELDS) {
                    Object want = e.getValue().get(f);
                    JsonNode got = actual.get(e.getKey()).get(f);
                    String where = label + " id " + e.getKey() + " " + f;
                    if (want == null) {
                        assertTrue(got == null || got.isNull(), where + ": expected null, got " + got);
                    } else if (want instanceof Double w) {
                        assertNotNull(got, where);
                        assertEquals(w, got.asDouble(), 1e-9, where);
                    } else {
                        assertNotNull(got, where);
                        assertEquals(0, new BigDecimal(want.toString()).compareTo(got.decimalValue()), where + ": expected " + want + ", got " + got);
                    }
                }
            }
        }
    }

    private AttributionOracle.Data generate(Random rnd, String accountId) {
        List<AttributionOracle.Ad> ads = new ArrayList<>();
        StringBuilder adRows = new StringBuilder();
        for (int c = 0; c < 2; c++) {
            for (int s = 0; s < 2; s++) {
                for (int a = 0; a < 2; a++) {
                    String adId = "ad" + c + s + a;
                    ads.add(new AttributionOracle.Ad(adId, "set" + c + s, "camp" + c));
                    adRows.append(row(accountId, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"acct\",\"campaign_id\":\"camp"
                            + c + "\",\"ad_set_id\":\"set" + c + s + "\",\"name\":\"Ad " + adId + "\",\"created_at\":\"2026-10-01 00:00:00\""));
                }
            }
        }
        Instant base = Instant.parse("2026-11-01T00:00:00Z");
        int span = 20 * 86400;
        List<AttributionOracle.Click> clicks = new ArrayList<>();
        List<AttributionOracle.Sale> sales = new ArrayList<>();
        StringBuilder clickRows = new StringBuilder();
        StringBuilder saleRows = new StringBuilder();
        int leads = 4 + rnd.nextInt(5);
        for (int l = 0; l < leads; l++) {
            String lead = "lead" + l;
            int n = rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                boolean organic = rnd.nextInt(3) == 0;
                String adId = organic || rnd.nextInt(8) == 0 ? "" : ads.get(rnd.nextInt(ads.size())).adId();
                // Same-second clicks sometimes, to exercise the tie on click id.
                Instant at = base.plusSeconds(rnd.nextInt(4) == 0 ? 86400L * (1 + rnd.nextInt(19)) : rnd.nextInt(span));
                String id = "c" + l + "_" + i;
                clicks.add(new AttributionOracle.Click(id, lead, at, organic, adId.isEmpty() ? "" : "FACEBOOK", adId));
                clickRows.append(row(accountId, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"click_date\":\"" + TS.format(at)
                        + "\",\"is_organic\":" + (organic ? 1 : 0) + ",\"integration_type\":\"" + (adId.isEmpty() ? "" : "FACEBOOK")
                        + "\",\"adspend_ad_id\":\"" + adId + "\",\"created_at\":\"" + TS.format(at) + "\""));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                times.add(base.plusSeconds(rnd.nextInt(span)));
            }
            times.sort(null);
            boolean existingCustomer = rnd.nextInt(5) == 0;
            for (int i = 0; i < m; i++) {
                long cents = 100 + rnd.nextInt(50000);
                boolean recurring = i > 0 && rnd.nextBoolean();
                boolean first = i == 0 && !existingCustomer;
                String id = "s" + l + "_" + i;
                sales.add(new AttributionOracle.Sale(id, lead, times.get(i), cents, recurring, first));
                saleRows.append(row(accountId, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead
                        + "\",\"quantity\":1,\"price\":" + BigDecimal.valueOf(cents, 2) + ",\"currency\":\"USD\",\"recurring\":"
                        + (recurring ? 1 : 0) + ",\"first_sale\":" + (first ? 1 : 0) + ",\"sale_date\":\"" + TS.format(times.get(i))
                        + "\",\"updated_at\":\"" + TS.format(times.get(i)) + "\",\"deleted\":0"));
            }
        }
        List<AttributionOracle.Spend> spend = new ArrayList<>();
        StringBuilder spendRows = new StringBuilder();
        for (AttributionOracle.Ad ad : ads) {
            for (int day = 0; day < 20; day++) {
                if (rnd.nextInt(3) != 0) {
                    continue;
                }
                long cents = 1 + rnd.nextInt(20000);
                LocalDate d = LocalDate.parse("2026-11-01").plusDays(day);
                spend.add(new AttributionOracle.Spend(ad.adId(), d, cents));
                spendRows.append(row(accountId, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + ad.adId() + "\",\"day\":\"" + d
                        + "\",\"ad_account_id\":\"acct\",\"campaign_id\":\"" + ad.campaignId() + "\",\"ad_set_id\":\"" + ad.adSetId()
                        + "\",\"spend\":" + BigDecimal.valueOf(cents, 2) + ",\"currency\":\"USD\",\"updated_at\":\"2026-11-01 00:00:00\""));
            }
        }
        insert("ads", adRows);
        insert("clicks", clickRows);
        insert("sales", saleRows);
        insert("ad_spend_daily", spendRows);
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, accountId);
        return new AttributionOracle.Data(ads, clicks, sales, spend);
    }

    private static String row(String accountId, String fields) {
        return "{\"account_id\":\"" + accountId + "\"," + fields + ",\"_version\":1,\"is_deleted\":0}\n";
    }

    private void insert(String table, StringBuilder rows) {
        if (rows.length() > 0) {
            clickHouse.insertJsonEachRow(table, rows.toString().getBytes(StandardCharsets.UTF_8));
        }
    }
}
