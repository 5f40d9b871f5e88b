package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GET /attribution against a plain-Java oracle ({@link AttributionOracle}) over 50 seeded random data sets, each
 * queried under several (model, sourceConfiguration, window, level) combinations; every metric must match to the cent.
 * The events are inserted straight into ClickHouse's streamed tables (the rows the CDC sink would write) by
 * {@link AttributionDataGenerator}.
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

    @Inject
    ClickHouseGateway clickHouse;

    @Inject
    DataSource dataSource;

    /** The random data sets, inserted into this test's ClickHouse and PostgreSQL. */
    private AttributionDataGenerator generator;

    @BeforeAll
    void generator() {
        generator = new AttributionDataGenerator(clickHouse, dataSource);
    }

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
        AttributionOracle.Data data = generator.generateKeywords(rnd, accountId, seed % 2 == 0 ? "GOOGLE" : "GOOGLE_V2");
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

    static final String[] STAGES = {"", "Hot", "hot,COLD", ""};
    static final String[] STATUSES = {"", "active", "paused"};

    /** {@link AttributionDataGenerator#generate}: one random data set on the account, the leads' stages remembered. */
    private AttributionOracle.Data generate(Random rnd, String accountId) {
        return generator.generate(rnd, accountId);
    }

    /** {@link AttributionDataGenerator#stageLeads}: the last data set's leads with one of these stages; null = no filter. */
    private Set<String> stageLeads(String stages) {
        return generator.stageLeads(stages);
    }

    /** The query-string part of the options dayOfAttribution, excludeHardCosts and lead_stage. */
    private static String options(boolean byClick, boolean excludeHard, String stage) {
        return (byClick ? "&dayOfAttribution=true" : "") + (excludeHard ? "&excludeHardCosts=true" : "")
                + (stage.isEmpty() ? "" : "&lead_stage=" + stage.replace(",", "%2C"));
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
}
