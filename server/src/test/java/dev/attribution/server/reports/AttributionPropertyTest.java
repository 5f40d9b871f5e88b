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
import java.util.HashSet;
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
 * GET /attribution against a plain-Java oracle ({@link AttributionOracle}) over 50 seeded random data sets, each
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
        for (int seed = 1; seed <= 50; seed++) {
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
                boolean byClick = (seed + k) % 3 == 0;
                boolean excludeHard = (seed + k) % 2 == 1;
                String stage = STAGES[(seed * 5 + k) % STAGES.length];
                AttributionOracle.Opts opts = new AttributionOracle.Opts(newCustomers, ignoreRecurring, grouping, byClick, excludeHard,
                        stageLeads(stage), Set.of(), null);
                Map<String, Map<String, Object>> expected = AttributionOracle.compute(data, depth, model, config, window,
                        start, end, LocalDate.parse("2026-11-05"), LocalDate.parse("2026-11-18"), opts);
                Set<String> ids = new LinkedHashSet<>();
                data.ads().forEach(a -> ids.add(AttributionOracle.entity(a, depth)));
                ids.add("missing-" + seed);
                String level = "facebook_" + depth;
                String query = "/api/v1.0/attribution?attributionModel=" + model + "&startDate=2026-11-05&endDate=2026-11-18&level="
                        + level + "&fields=" + String.join(",", FIELDS) + "&ids=" + list(ids.toArray(String[]::new))
                        + "&sourceConfiguration=" + config + "&windowAttributionDaysRange=" + window
                        + "&timeGroupingOption=" + grouping + "&newCustomerConfiguration=" + newCustomers
                        + "&ignoreRecurringSales=" + ignoreRecurring + options(byClick, excludeHard, stage);
                Response r = get(key, query);
                String label = "seed " + seed + " " + model + " " + config + " window " + window + " " + level + " " + grouping
                        + " " + newCustomers + (ignoreRecurring ? " ignoreRecurringSales" : "") + options(byClick, excludeHard, stage);
                assertEquals(200, r.status(), label + ": " + r.raw());
                assertTrue(r.message().contains("missing-" + seed), label + ": " + r.raw());
                compare(expected, r.body().get("result"), label);
                combos++;
            }
            scientific(seed, data, key);
            if (seed <= 8) {
                keywords(seed, rnd);
            }
        }
        assertEquals(300, combos);
        assertTrue(keywordRows >= 24, "keyword rows compared: " + keywordRows);
    }

    static final String[] ALL_MODELS = {"last_click", "first_click", "scientific"};
    static final String KEYWORDS_IDS = "g0:[101,102],g1:[201,202,555]";

    /**
     * Keyword levels against the oracles (depth "keyword"): a Google account whose clicks carry {@code targetid} with
     * kwd- ids on their tracked URL, three queries per data set over the three models and the options.
     */
    private void keywords(int seed, Random rnd) {
        String accountId = RequestIds.next("acc_");
        directory.createAccount(accountId, "Kw " + accountId, null, ZoneOffset.UTC, "USD");
        String key = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(key), Roles.ALL, false);
        String level = seed % 2 == 0 ? "google_keyword" : "google_v2_keyword";
        AttributionOracle.Data data = generateKeywords(rnd, accountId, seed % 2 == 0 ? "GOOGLE" : "GOOGLE_V2");
        Set<String> registered = Set.of("g0:101", "g0:102", "g1:201", "g1:202");
        for (int k = 0; k < 3; k++) {
            String model = ALL_MODELS[(seed + k) % 3];
            String config = CONFIGS[(seed * 3 + k) % CONFIGS.length];
            int window = WINDOWS[(seed + k) % 2];
            int days = SCIENTIFIC_DAYS[(seed + k) % 3];
            String grouping = GROUPINGS[(seed + 2 * k) % GROUPINGS.length];
            String newCustomers = NEW_CUSTOMERS[(seed + k) % NEW_CUSTOMERS.length];
            boolean ignoreRecurring = (seed + k) % 4 == 2;
            boolean byClick = (seed + k) % 2 == 1;
            boolean excludeHard = (seed + k) % 3 == 1;
            AttributionOracle.Opts opts = new AttributionOracle.Opts(newCustomers, ignoreRecurring, grouping, byClick, excludeHard, null,
                    Set.of(), registered);
            Instant start = Instant.parse("2026-11-05T00:00:00Z");
            Instant end = Instant.parse("2026-11-18T23:59:59Z");
            LocalDate from = LocalDate.parse("2026-11-05");
            LocalDate to = LocalDate.parse("2026-11-18");
            Map<String, Map<String, Object>> expected = model.equals("scientific")
                    ? ScientificOracle.compute(data, "keyword", config, window, days, start, end, from, to, opts, null, false)
                    : AttributionOracle.compute(data, "keyword", model, config, window, start, end, from, to, opts);
            // no spend per keyword: cost and what is computed from it are null
            expected.values().forEach(row -> List.of("cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer",
                    "cost_per_lead").forEach(f -> row.put(f, null)));
            String label = "seed " + seed + " " + level + " " + model + " " + config + " window " + window + " days " + days + " " + grouping
                    + " " + newCustomers + (ignoreRecurring ? " ignoreRecurringSales" : "") + options(byClick, excludeHard, "");
            Response r = get(key, "/api/v1.0/attribution?attributionModel=" + model + "&startDate=2026-11-05&endDate=2026-11-18&level=" + level
                    + "&fields=" + String.join(",", FIELDS) + "&keywordsIds=" + java.net.URLEncoder.encode(KEYWORDS_IDS, StandardCharsets.UTF_8)
                    + "&sourceConfiguration=" + config + "&windowAttributionDaysRange=" + window + "&scientificDaysRange=" + days
                    + "&timeGroupingOption=" + grouping + "&newCustomerConfiguration=" + newCustomers + "&ignoreRecurringSales=" + ignoreRecurring
                    + options(byClick, excludeHard, ""));
            assertEquals(200, r.status(), label + ": " + r.raw());
            assertTrue(r.message().contains("Id not found at level " + level + ": g1:555"), label + ": " + r.raw());
            com.fasterxml.jackson.databind.node.ArrayNode rows = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            for (JsonNode row : r.body().get("result")) {
                com.fasterxml.jackson.databind.node.ObjectNode copy = row.deepCopy();
                if (row.has("adgroupId")) {
                    copy.put("id", row.get("adgroupId").asText() + ":" + row.get("id").asText());
                }
                rows.add(copy);
            }
            compare(expected, rows, label);
            keywordRows += expected.size();
        }
    }

    /** Rows compared at keyword levels, so a run where no keyword ever had data fails. */
    private int keywordRows;

    /** Two Google ad groups with two registered keywords each; clicks with kwd- ids, unregistered ones and none. */
    private AttributionOracle.Data generateKeywords(Random rnd, String accountId, String platform) {
        List<AttributionOracle.Ad> ads = new ArrayList<>();
        StringBuilder adRows = new StringBuilder();
        for (int g = 0; g < 2; g++) {
            for (int a = 0; a < 2; a++) {
                String adId = "gad" + g + a;
                ads.add(new AttributionOracle.Ad(adId, "g" + g, "gc", "gacct"));
                for (String p : List.of("GOOGLE", "GOOGLE_V2")) {
                    adRows.append(row(accountId, "\"platform\":\"" + p + "\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"gacct\",\"campaign_id\":\"gc\","
                            + "\"ad_set_id\":\"g" + g + "\",\"name\":\"Ad " + adId + "\",\"created_at\":\"2026-10-01 00:00:00\""));
                }
            }
        }
        try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO ad_keywords (account_id, platform, keyword_id, ad_set_id, keyword, match_type) "
                     + "VALUES (?, ?, ?, ?, ?, 'EXACT')")) {
            for (String p : List.of("GOOGLE", "GOOGLE_V2")) {
                for (String[] kw : new String[][]{{"101", "g0"}, {"102", "g0"}, {"201", "g1"}, {"202", "g1"}}) {
                    ps.setString(1, accountId);
                    ps.setString(2, p);
                    ps.setString(3, kw[0]);
                    ps.setString(4, kw[1]);
                    ps.setString(5, "keyword " + kw[0]);
                    ps.executeUpdate();
                }
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
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
                boolean organic = rnd.nextInt(4) == 0;
                AttributionOracle.Ad ad = organic ? null : ads.get(rnd.nextInt(ads.size()));
                String kw = ad == null || rnd.nextInt(5) == 0 ? "" : rnd.nextInt(8) == 0 ? "999"
                        : (ad.adSetId().equals("g0") ? "10" : "20") + (1 + rnd.nextInt(2));
                String url = "https://shop.test/p?gclid=x" + (kw.isEmpty() ? "" : "&targetid=" + (rnd.nextBoolean() ? "kwd-" + kw : "aud-7%3Akwd-" + kw));
                Instant at = base.plusSeconds(rnd.nextInt(4) == 0 ? 86400L * (1 + rnd.nextInt(19)) : rnd.nextInt(span));
                String id = "c" + l + "_" + i;
                clicks.add(new AttributionOracle.Click(id, lead, at, organic, ad == null ? "" : platform, ad == null ? "" : ad.adId(), "", kw));
                clickRows.append(row(accountId, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"tracked_url\":\"" + url
                        + "\",\"click_date\":\"" + TS.format(at) + "\",\"is_organic\":" + (organic ? 1 : 0) + ",\"integration_type\":\""
                        + (ad == null ? "" : platform) + "\",\"adspend_ad_id\":\"" + (ad == null ? "" : ad.adId()) + "\",\"created_at\":\"" + TS.format(at) + "\""));
            }
            int m = rnd.nextInt(4);
            List<Instant> times = new ArrayList<>();
            for (int i = 0; i < m; i++) {
                times.add(base.plusSeconds(rnd.nextInt(span)));
            }
            times.sort(null);
            for (int i = 0; i < m; i++) {
                long cents = 100 + rnd.nextInt(50000);
                long taxes = rnd.nextInt((int) cents / 10 + 1);
                boolean recurring = i > 0 && rnd.nextBoolean();
                boolean first = i == 0 && rnd.nextInt(5) != 0;
                String id = "s" + l + "_" + i;
                sales.add(new AttributionOracle.Sale(id, lead, times.get(i), cents, recurring, first, taxes));
                saleRows.append(row(accountId, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead
                        + "\",\"quantity\":1,\"price\":" + BigDecimal.valueOf(cents, 2) + ",\"taxes\":" + BigDecimal.valueOf(taxes, 2)
                        + ",\"currency\":\"USD\",\"recurring\":" + (recurring ? 1 : 0) + ",\"first_sale\":" + (first ? 1 : 0)
                        + ",\"sale_date\":\"" + TS.format(times.get(i)) + "\",\"updated_at\":\"" + TS.format(times.get(i)) + "\",\"deleted\":0"));
            }
        }
        insert("ads", adRows);
        insert("clicks", clickRows);
        insert("sales", saleRows);
        return new AttributionOracle.Data(ads, clicks, sales, List.of());
    }

    static final String[] STAGES = {"", "Hot", "hot,COLD", ""};
    static final String[] STATUSES = {"", "active", "paused"};

    /** The query-string part of the options dayOfAttribution, excludeHardCosts and lead_stage. */
    private static String options(boolean byClick, boolean excludeHard, String stage) {
        return (byClick ? "&dayOfAttribution=true" : "") + (excludeHard ? "&excludeHardCosts=true" : "")
                + (stage.isEmpty() ? "" : "&lead_stage=" + stage.replace(",", "%2C"));
    }

    /** The generated leads whose stage is one of {@code stages} (comma-separated, any case); null = no filter. */
    private Set<String> stageLeads(String stages) {
        if (stages.isEmpty()) {
            return null;
        }
        Set<String> wanted = new HashSet<>();
        for (String x : stages.split(",")) {
            wanted.add(x.trim().toLowerCase(java.util.Locale.ROOT));
        }
        Set<String> leads = new HashSet<>();
        leadStages.forEach((lead, stage) -> {
            if (wanted.contains(stage.toLowerCase(java.util.Locale.ROOT))) {
                leads.add(lead);
            }
        });
        return leads;
    }

    /** Every expected row against the answer's rows by id: decimals exactly, fractional counts (Double) to 1e-9. */
    private static void compare(Map<String, Map<String, Object>> expected, JsonNode result, String label) {
        Map<String, JsonNode> actual = new HashMap<>();
        result.forEach(row -> actual.put(row.get("id").asText(), row));
        assertEquals(expected.keySet(), actual.keySet(), label + ": rows " + result);
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

    static final int[] SCIENTIFIC_DAYS = {30, 2, 7};

    /**
     * Three scientific queries per data set against {@link ScientificOracle}, fractional counts to 1e-9, money to the
     * cent: two GET /attribution with the options (dayOfAttribution, grouping, status, sale filters, lead_stage), then
     * either isAdAccountId paging or GET /attribution/ad-account (grouping, reportSourceVisibility).
     */
    private void scientific(int seed, AttributionOracle.Data data, String key) {
        Instant start = Instant.parse("2026-11-05T00:00:00Z");
        Instant end = Instant.parse("2026-11-18T23:59:59Z");
        LocalDate from = LocalDate.parse("2026-11-05");
        LocalDate to = LocalDate.parse("2026-11-18");
        for (int k = 0; k < 3; k++) {
            String config = CONFIGS[(seed + k * 2) % CONFIGS.length];
            int window = WINDOWS[(seed + k) % 2];
            int days = SCIENTIFIC_DAYS[(seed + k) % 3];
            String depth = DEPTHS[(seed * 2 + k) % 3];
            String grouping = k == 2 ? "source_link" : GROUPINGS[(seed + 3 * k) % GROUPINGS.length];
            String status = grouping.equals("source_link") && k < 2 ? STATUSES[(seed + k) % STATUSES.length] : "";
            String newCustomers = NEW_CUSTOMERS[(seed * 2 + k) % NEW_CUSTOMERS.length];
            boolean ignoreRecurring = (seed + k) % 4 == 1;
            boolean byClick = (seed + k) % 2 == 0;
            boolean excludeHard = (seed * 3 + k) % 2 == 0;
            String stage = k == 2 ? "" : STAGES[(seed + k) % STAGES.length];
            String common = "&sourceConfiguration=" + config + "&windowAttributionDaysRange=" + window + "&scientificDaysRange=" + days
                    + "&newCustomerConfiguration=" + newCustomers + "&ignoreRecurringSales=" + ignoreRecurring + options(byClick, excludeHard, stage);
            String label = "seed " + seed + " scientific " + config + " window " + window + " days " + days + " " + depth + " " + grouping
                    + " " + status + " " + newCustomers + (ignoreRecurring ? " ignoreRecurringSales" : "") + options(byClick, excludeHard, stage);
            Set<String> ids = new LinkedHashSet<>();
            data.ads().forEach(a -> ids.add(AttributionOracle.entity(a, depth)));
            if (k < 2) {
                AttributionOracle.Opts opts = new AttributionOracle.Opts(newCustomers, ignoreRecurring, grouping, byClick, excludeHard,
                        stageLeads(stage), Set.of(), null);
                Map<String, Map<String, Object>> expected = ScientificOracle.compute(data, depth, config, window, days, start, end, from, to,
                        opts, status.isEmpty() ? null : ids, false);
                if (!status.isEmpty()) {
                    expected.values().removeIf(row -> (((BigDecimal) row.get("cost")).signum() > 0) != status.equals("active"));
                }
                Response r = get(key, "/api/v1.0/attribution?attributionModel=scientific&startDate=2026-11-05&endDate=2026-11-18&level=facebook_"
                        + depth + "&fields=" + String.join(",", FIELDS) + "&ids=" + list(ids.toArray(String[]::new)) + "&timeGroupingOption=" + grouping
                        + (status.isEmpty() ? "" : "&status=" + status) + common);
                assertEquals(200, r.status(), label + ": " + r.raw());
                compare(expected, r.body().get("result"), label);
            } else if (seed % 2 == 0) {
                // isAdAccountId: every source of the ad account at the level, zeros included, two per page
                String account = seed % 4 == 0 ? "acct" : "acct2";
                Set<String> sources = new LinkedHashSet<>();
                data.ads().stream().filter(a -> a.adAccountId().equals(account)).forEach(a -> sources.add(AttributionOracle.entity(a, depth)));
                Map<String, Map<String, Object>> expected = ScientificOracle.compute(data, depth, config, window, days, start, end, from, to,
                        new AttributionOracle.Opts(newCustomers, ignoreRecurring, "source_link", byClick, excludeHard, null, Set.of(), null), sources, false);
                com.fasterxml.jackson.databind.node.ArrayNode all = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
                String page = "";
                do {
                    Response r = get(key, "/api/v1.0/attribution?attributionModel=scientific&startDate=2026-11-05&endDate=2026-11-18&level=facebook_"
                            + depth + "&fields=" + String.join(",", FIELDS) + "&ids=" + account + "&isAdAccountId=true&pageSize=2" + common + page);
                    assertEquals(200, r.status(), label + " isAdAccountId: " + r.raw());
                    all.addAll((com.fasterxml.jackson.databind.node.ArrayNode) r.body().get("result"));
                    JsonNode next = r.body().get("nextPageId");
                    page = next == null || next.isNull() ? "" : "&pageId=" + next.asText();
                } while (!page.isEmpty());
                compare(expected, all, label + " isAdAccountId " + account);
            } else {
                // GET /attribution/ad-account: channels are ad accounts; clicks of deleted source links left out
                String account = seed % 4 == 1 ? "acct" : "acct2";
                String adGrouping = GROUPINGS[seed % GROUPINGS.length];
                boolean visibility = seed % 3 != 0;
                AttributionOracle.Opts opts = new AttributionOracle.Opts(newCustomers, ignoreRecurring, adGrouping, byClick, excludeHard, null,
                        visibility ? Set.of("@gone") : Set.of(), Set.of(account));
                Map<String, Map<String, Object>> expected = ScientificOracle.compute(data, "account", config, window, days, start, end, from, to,
                        opts, adGrouping.equals("source_link") ? Set.of(account) : null, visibility);
                Response r = get(key, "/api/v1.0/attribution/ad-account?attributionModel=scientific&startDate=2026-11-05&endDate=2026-11-18"
                        + "&fields=" + String.join(",", FIELDS) + "&ids=" + account + "&reportSourceVisibility=" + visibility
                        + "&adLevelDateGroupingOption=" + (adGrouping.equals("source_link") ? "ad_account" : adGrouping) + common);
                assertEquals(200, r.status(), label + " ad-account: " + r.raw());
                compare(expected, r.body().get("result"), label + " ad-account " + account + " " + adGrouping + " visibility " + visibility);
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
                    ads.add(new AttributionOracle.Ad(adId, "set" + c + s, "camp" + c, c == 0 ? "acct" : "acct2"));
                    adRows.append(row(accountId, "\"platform\":\"FACEBOOK\",\"ad_id\":\"" + adId + "\",\"ad_account_id\":\"" + (c == 0 ? "acct" : "acct2")
                            + "\",\"campaign_id\":\"camp"
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
        StringBuilder leadRows = new StringBuilder();
        leadStages.clear();
        for (int l = 0; l < leads; l++) {
            String lead = "lead" + l;
            String stage = List.of("Hot", "Cold", "").get(rnd.nextInt(3));
            leadStages.put(lead, stage);
            leadRows.append(row(accountId, "\"id\":\"" + lead + "\",\"email\":\"" + lead + "@x.test\",\"stage_name\":\"" + stage
                    + "\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\""));
            int n = rnd.nextInt(6);
            for (int i = 0; i < n; i++) {
                boolean organic = rnd.nextInt(3) == 0;
                String adId = organic || rnd.nextInt(8) == 0 ? "" : ads.get(rnd.nextInt(ads.size())).adId();
                // Same-second clicks sometimes, to exercise the tie on click id.
                Instant at = base.plusSeconds(rnd.nextInt(4) == 0 ? 86400L * (1 + rnd.nextInt(19)) : rnd.nextInt(span));
                String id = "c" + l + "_" + i;
                String tag = rnd.nextInt(5) == 0 ? "@gone" : "@live";
                clicks.add(new AttributionOracle.Click(id, lead, at, organic, adId.isEmpty() ? "" : "FACEBOOK", adId, tag));
                clickRows.append(row(accountId, "\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"source_link_tag\":\"" + tag
                        + "\",\"click_date\":\"" + TS.format(at)
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
                long taxes = rnd.nextInt((int) cents / 10 + 1);
                long shipping = rnd.nextInt(500);
                long goods = rnd.nextInt((int) cents / 3 + 1);
                sales.add(new AttributionOracle.Sale(id, lead, times.get(i), cents, recurring, first, taxes + shipping + goods));
                saleRows.append(row(accountId, "\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead
                        + "\",\"quantity\":1,\"price\":" + BigDecimal.valueOf(cents, 2) + ",\"taxes\":" + BigDecimal.valueOf(taxes, 2)
                        + ",\"shipping\":" + BigDecimal.valueOf(shipping, 2) + ",\"cost_of_goods\":" + BigDecimal.valueOf(goods, 2) + ",\"currency\":\"USD\",\"recurring\":"
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
                        + "\",\"ad_account_id\":\"" + ad.adAccountId() + "\",\"campaign_id\":\"" + ad.campaignId() + "\",\"ad_set_id\":\"" + ad.adSetId()
                        + "\",\"spend\":" + BigDecimal.valueOf(cents, 2) + ",\"currency\":\"USD\",\"updated_at\":\"2026-11-01 00:00:00\""));
            }
        }
        insert("ads", adRows);
        insert("leads", leadRows);
        insert("source_links", new StringBuilder()
                .append(row(accountId, "\"id\":\"sl1\",\"tag\":\"@gone\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-02 00:00:00\","
                        + "\"deleted_at\":\"2026-10-02 00:00:00\""))
                .append(row(accountId, "\"id\":\"sl2\",\"tag\":\"@live\",\"created_at\":\"2026-10-01 00:00:00\",\"updated_at\":\"2026-10-01 00:00:00\"")));
        stages(accountId);
        insert("clicks", clickRows);
        insert("sales", saleRows);
        insert("ad_spend_daily", spendRows);
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, accountId);
        return new AttributionOracle.Data(ads, clicks, sales, spend);
    }

    /** The generated leads' stage names (PostgreSQL knows Hot and Cold for lead_stage). */
    private final Map<String, String> leadStages = new HashMap<>();

    @Inject
    javax.sql.DataSource dataSource;

    private void stages(String accountId) {
        try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO lead_stages (account_id, id, name, created_at) VALUES (?, ?, ?, now())")) {
            for (String[] st : new String[][]{{"st1", "Hot"}, {"st2", "Cold"}}) {
                ps.setString(1, accountId);
                ps.setString(2, st[0]);
                ps.setString(3, st[1]);
                ps.executeUpdate();
            }
            if (!c.getAutoCommit()) {
                c.commit();
            }
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
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
