package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 20 point 4, end to end: accounts written only through the public API, as an integration partner writes them
 * ({@link ApiWrittenDataGenerator}: sources on FACEBOOK and GOOGLE, organic and hand-made sources, clicks (GOOGLE_V2 too,
 * some with keywords), orders, refunds, calls, custom costs, lead stages and a spend file — no SQL, no seed), then
 * every number of GET /attribution (keyword levels included) and
 * GET /attribution/ad-account against the plain-Java {@link AttributionOracle} / {@link ScientificOracle} fed from
 * what was written (and, where the API derives a value — sale ids, the split of an order, refunds, first-sale flags —
 * from GET /sales and GET /conversion-paths). The rules the oracle decides are in docs/attribution-models.md,
 * "Rules the API-written oracle checks".
 *
 * <p>{@value #DEFAULT_SETS} seeded data sets by default (seeds 1..n, reproducible); {@code -Dapi.oracle.sets=100}
 * runs more, {@code -Dapi.oracle.firstSeed=k} starts elsewhere. Every mismatch of a run is collected and reported
 * together (seed, endpoint, query, id, field, expected, actual). The writing and reading back is
 * {@link ApiWrittenPlannedAccounts}; the options beyond model, level, grouping and sources {@link ApiWrittenExtra}.
 */
@MicronautTest(transactional = false)
class ApiWrittenAttributionTest extends ApiTest {

    static final int DEFAULT_SETS = ApiWrittenPlannedAccounts.DEFAULT_SETS;
    static final String[] LEVELS = {"facebook_ad", "facebook_adset", "facebook_campaign", "google_ad", "google_adgroup", "google_campaign",
            "google_v2_ad", "google_v2_adgroup", "google_v2_campaign", "tiktok_ad", "tiktok_adgroup", "snapchat_ad", "snapchat_adsquad"};
    static final String[] MODELS = {"last_click", "first_click", "scientific"};
    static final String[] GROUPINGS = {"source_link", "day", "week", "month", "year"};
    static final String[] CONFIGS = {"prioritize_paid", "all_sources", "only_paid", "only_organic", "prioritize_organic"};
    static final String[][] RANGES = {{"2026-10-24", "2026-11-16"}, {"2026-10-01", "2026-11-24"}, {"2026-11-02", "2026-11-08"}};
    static final List<String> CLICK_FIELDS = List.of("sales", "one_time_sales", "unique_sales", "unique_customers", "customers",
            "returning_customers", "revenue", "recurring_revenue", "total_revenue", "unique_customers_revenue", "leads", "clicks",
            "cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer", "cost_per_lead", "aov",
            "refund_count", "refund", "hard_costs", "calls", "unique_calls", "qualified_calls", "unqualified_calls", "canceled_calls",
            "no_show_calls");
    /** Scientific: the refund, hard-cost and call sums are not defined for fractional credit; the rest is (doc "Scientific"). */
    static final List<String> SCIENTIFIC_FIELDS = CLICK_FIELDS.subList(0, CLICK_FIELDS.indexOf("refund_count"));

    private final List<String> failures = new ArrayList<>();
    private int comparisons;
    private int rowsCompared;
    /** Rows compared at keyword levels, so a run where no keyword ever had data fails. */
    private int keywordRows;
    private final Set<String> covered = new LinkedHashSet<>();

    private List<ApiWrittenDataSet> sets;

    /** Plans and writes every data set, waits until ClickHouse has all of it, reads back what the API derived. */
    @BeforeAll
    void write() {
        sets = new ApiWrittenPlannedAccounts(this, directory).write(Integer.getInteger("api.oracle.sets", DEFAULT_SETS),
                Integer.getInteger("api.oracle.firstSeed", 1), failures::add);
    }

    @Test
    void reportsMatchTheOracle() {
        long t0 = System.nanoTime();
        for (ApiWrittenDataSet d : sets) {
            int seed = d.seed;
            for (int k = 0; k < LEVELS.length; k++) {
                String level = LEVELS[k];
                String model = MODELS[(seed + k) % MODELS.length];
                String grouping = GROUPINGS[(seed * 2 + k) % GROUPINGS.length];
                String config = CONFIGS[(seed + 2 * k) % CONFIGS.length];
                int window = (seed + k) % 4 == 0 ? 7 : 0;
                int days = (seed + k) % 3 == 0 ? 7 : 30;
                String[] range = RANGES[(seed + k) % RANGES.length];
                attribution(d, level, model, grouping, config, window, days, range, ApiWrittenExtra.of(seed * 5 + k));
            }
            // isAdAccountId: one FACEBOOK and the GOOGLE ad account, a page of two sources at a time
            String fbAccount = d.paidSources(ApiWrittenDataGenerator.FACEBOOK).get(seed % d.paidSources(ApiWrittenDataGenerator.FACEBOOK).size()).adAccountId();
            adAccountPages(d, LEVELS[seed % 3], MODELS[seed % 3], fbAccount, CONFIGS[seed % CONFIGS.length], RANGES[seed % RANGES.length],
                    ApiWrittenExtra.of(seed * 3 + 1));
            String gAccount = d.paidSources(ApiWrittenDataGenerator.GOOGLE).get(0).adAccountId();
            adAccountPages(d, LEVELS[3 + (seed + 1) % 3], MODELS[(seed + 1) % 3], gAccount, CONFIGS[(seed + 3) % CONFIGS.length],
                    RANGES[(seed + 1) % RANGES.length], ApiWrittenExtra.of(seed * 3 + 2));
            // GET /attribution/ad-account, with and without adLevelDateGroupingOption
            String[] adGroupings = {"", "ad_account", "day", "week", "month", "year"};
            adAccountReport(d, fbAccount, MODELS[(seed + 2) % 3], adGroupings[seed % adGroupings.length], CONFIGS[(seed + 1) % CONFIGS.length],
                    RANGES[(seed + 2) % RANGES.length], ApiWrittenExtra.of(seed * 7 + 3));
            adAccountReport(d, gAccount, MODELS[seed % 3], adGroupings[(seed + 3) % adGroupings.length], CONFIGS[(seed + 4) % CONFIGS.length],
                    RANGES[seed % RANGES.length], ApiWrittenExtra.of(seed * 7 + 4));
            // keyword levels: both Google platforms, the three models
            for (int k = 0; k < 2; k++) {
                keywords(d, k == 0 ? "google_keyword" : "google_v2_keyword", MODELS[(seed + k) % 3], GROUPINGS[(seed + 3 * k) % GROUPINGS.length],
                        CONFIGS[(seed * 3 + k) % CONFIGS.length], (seed + k) % 2 == 0 ? 0 : 3, new int[]{30, 2, 7}[(seed + k) % 3],
                        RANGES[(seed + k + 1) % RANGES.length], ApiWrittenExtra.of(seed * 11 + k));
            }
        }
        System.out.println("ApiWrittenAttributionTest: " + sets.size() + " data sets, " + comparisons + " reports in "
                + String.format("%.1f s", (System.nanoTime() - t0) / 1e9) + ", " + rowsCompared + " rows compared (" + keywordRows
                + " at keyword levels); covered " + covered);
        assertTrue(failures.isEmpty(), failures.size() + " mismatches:\n" + String.join("\n", failures.subList(0, Math.min(80, failures.size()))));
        assertTrue(rowsCompared >= sets.size() * 10, "rows compared: " + rowsCompared);
        assertTrue(keywordRows >= sets.size(), "keyword rows compared: " + keywordRows);
    }

    /** A bare-date lower bound: 00:00:00 in the account zone (spec 2.2.4). */
    private static Instant start(ApiWrittenDataSet d, String day) {
        return LocalDate.parse(day).atStartOfDay(d.zone).toInstant();
    }

    /** A bare-date upper bound: 23:59:59 in the account zone. */
    private static Instant end(ApiWrittenDataSet d, String day) {
        return LocalDate.parse(day).atTime(23, 59, 59).atZone(d.zone).toInstant();
    }

    private static String platformOf(String level) {
        return level.startsWith("facebook") ? ApiWrittenDataGenerator.FACEBOOK
                : level.startsWith("google_v2") ? ApiWrittenDataGenerator.GOOGLE_V2
                : level.startsWith("tiktok") ? ApiWrittenDataGenerator.TIKTOK
                : level.startsWith("snapchat") ? ApiWrittenDataGenerator.SNAPCHAT : ApiWrittenDataGenerator.GOOGLE;
    }

    private static String depthOf(String level) {
        return switch (level.substring(level.lastIndexOf('_') + 1)) {
            case "ad" -> "ad";
            case "adset", "adgroup", "adsquad" -> "adset";
            default -> "campaign";
        };
    }

    /**
     * {@code status} (section "Options"): every requested source has a row, zeros included, and only those with ad
     * spend (the spend file's, not custom costs) in the range are kept for {@code active}, the others for {@code paused}.
     */
    private static void applyStatus(Map<String, Map<String, Object>> expected, ApiWrittenDataSet d, AttributionOracle.Data data, String depth,
                                    Set<String> ids, String status, LocalDate from, LocalDate to) {
        if (status.isEmpty()) {
            return;
        }
        Map<String, AttributionOracle.Ad> ads = new HashMap<>();
        data.ads().forEach(a -> ads.put(a.adId(), a));
        Map<String, Long> spend = new HashMap<>();
        for (AttributionOracle.Spend sp : d.importedSpend("")) {
            AttributionOracle.Ad ad = ads.get(sp.adId());
            if (ad != null && !sp.day().isBefore(from) && !sp.day().isAfter(to)) {
                spend.merge(AttributionOracle.entity(ad, depth), sp.cents(), Long::sum);
            }
        }
        ids.forEach(id -> expected.computeIfAbsent(id, k -> AttributionOracle.emptyRow()));
        expected.keySet().removeIf(id -> (spend.getOrDefault(id, 0L) > 0) != status.equals("active"));
    }

    /** GET /attribution over every entity of the level (and one unknown id) against the oracle. */
    private void attribution(ApiWrittenDataSet d, String level, String model, String grouping, String config, int window, int days, String[] range, ApiWrittenExtra x) {
        String depth = depthOf(level);
        LocalDate from = LocalDate.parse(range[0]);
        LocalDate to = LocalDate.parse(range[1]);
        AttributionOracle.Data data = d.data(platformOf(level), from, to);
        Set<String> ids = new LinkedHashSet<>();
        data.ads().forEach(a -> ids.add(AttributionOracle.entity(a, depth)));
        ids.remove(""); // a GOOGLE ad group sent without a campaign has none
        if (!grouping.equals("source_link")) {
            x = x.withoutStatus();
        }
        AttributionOracle.Opts opts = x.opts(d, grouping, ids);
        boolean scientific = model.equals("scientific");
        Map<String, Map<String, Object>> expected = scientific
                ? ScientificOracle.compute(data, depth, config, window, days, start(d, range[0]), end(d, range[1]), from, to, opts, null, false)
                : AttributionOracle.compute(data, depth, model, config, window, start(d, range[0]), end(d, range[1]), from, to, opts);
        applyStatus(expected, d, data, depth, ids, x.status(), from, to);
        List<String> fields = scientific ? SCIENTIFIC_FIELDS : CLICK_FIELDS;
        List<String> asked = new ArrayList<>(ids);
        asked.add("missing-" + d.seed);
        String query = "/api/v1.0/attribution?attributionModel=" + model + "&startDate=" + range[0] + "&endDate=" + range[1] + "&level=" + level
                + "&fields=" + String.join(",", fields) + "&ids=" + enc(String.join(",", asked)) + "&sourceConfiguration=" + config
                + "&windowAttributionDaysRange=" + window + "&scientificDaysRange=" + days + "&timeGroupingOption=" + grouping + x.query();
        Response r = get(d.key, query);
        String label = "seed " + d.seed + " GET " + query;
        if (r.status() != 200) {
            failures.add(label + ": " + r.status() + " " + r.raw());
            return;
        }
        String message = r.message() == null ? "" : r.message();
        if (!message.contains("missing-" + d.seed) || ids.stream().anyMatch(message::contains)) {
            failures.add(label + ": message " + message + " should name missing-" + d.seed + " only");
        }
        compare(expected, r.body().get("result"), fields, label);
        // section "Levels": rows in the order of ids; section "Options": buckets oldest first
        order(r.body().get("result"), grouping.equals("source_link") ? asked : null, label);
        covered.add(model + "/" + level + "/" + grouping + (x.status().isEmpty() ? "" : "/" + x.status())
                + (x.stage().isEmpty() ? "" : "/stage") + (x.excludeHard() ? "/excludeHardCosts" : ""));
    }

    /** GET /attribution with isAdAccountId=true, paged two sources at a time: every source of the account, zeros included. */
    private void adAccountPages(ApiWrittenDataSet d, String level, String model, String adAccount, String config, String[] range, ApiWrittenExtra x) {
        String depth = depthOf(level);
        LocalDate from = LocalDate.parse(range[0]);
        LocalDate to = LocalDate.parse(range[1]);
        AttributionOracle.Data data = d.data(platformOf(level), from, to);
        Set<String> sources = new LinkedHashSet<>();
        data.ads().stream().filter(a -> a.adAccountId().equals(adAccount)).forEach(a -> sources.add(AttributionOracle.entity(a, depth)));
        sources.remove("");
        x = x.withoutStatus();
        AttributionOracle.Opts opts = x.opts(d, "source_link", sources);
        boolean scientific = model.equals("scientific");
        Map<String, Map<String, Object>> expected = scientific
                ? ScientificOracle.compute(data, depth, config, 0, 30, start(d, range[0]), end(d, range[1]), from, to, opts, sources, false)
                : AttributionOracle.compute(data, depth, model, config, 0, start(d, range[0]), end(d, range[1]), from, to, opts);
        sources.forEach(s -> expected.computeIfAbsent(s, k -> AttributionOracle.emptyRow()));
        List<String> fields = scientific ? SCIENTIFIC_FIELDS : CLICK_FIELDS;
        String query = "/api/v1.0/attribution?attributionModel=" + model + "&startDate=" + range[0] + "&endDate=" + range[1] + "&level=" + level
                + "&fields=" + String.join(",", fields) + "&ids=" + adAccount + "&isAdAccountId=true&pageSize=2&sourceConfiguration=" + config + x.query();
        String label = "seed " + d.seed + " GET " + query;
        ArrayNode all = JsonNodeFactory.instance.arrayNode();
        String page = "";
        int pages = 0;
        do {
            Response r = get(d.key, query + page);
            if (r.status() != 200) {
                failures.add(label + page + ": " + r.status() + " " + r.raw());
                return;
            }
            all.addAll((ArrayNode) r.body().get("result"));
            JsonNode next = r.body().get("nextPageId");
            page = next == null || next.isNull() ? "" : "&pageId=" + next.asText();
        } while (!page.isEmpty() && ++pages < 50);
        compare(expected, all, fields, label);
        covered.add(model + "/" + level + "/isAdAccountId");
    }

    /** GET /attribution/ad-account for one ad account (every platform), one row or date buckets. */
    private void adAccountReport(ApiWrittenDataSet d, String adAccount, String model, String adGrouping, String config, String[] range, ApiWrittenExtra x) {
        LocalDate from = LocalDate.parse(range[0]);
        LocalDate to = LocalDate.parse(range[1]);
        AttributionOracle.Data data = d.data("", from, to);
        String grouping = adGrouping.isEmpty() || adGrouping.equals("ad_account") ? "source_link" : adGrouping;
        // reportSourceVisibility=true: the clicks of deleted sources are left out (section "Options")
        boolean visibility = (d.seed + adAccount.length()) % 2 == 0;
        x = x.plain();
        AttributionOracle.Opts opts = x.opts(d, grouping, Set.of(adAccount), visibility ? d.deleted : Set.of());
        boolean scientific = model.equals("scientific");
        Map<String, Map<String, Object>> expected = scientific
                ? ScientificOracle.compute(data, "account", config, 0, 30, start(d, range[0]), end(d, range[1]), from, to, opts,
                grouping.equals("source_link") ? Set.of(adAccount) : null, visibility)
                : AttributionOracle.compute(data, "account", model, config, 0, start(d, range[0]), end(d, range[1]), from, to, opts);
        if (grouping.equals("source_link")) {
            expected.computeIfAbsent(adAccount, k -> AttributionOracle.emptyRow());
        }
        List<String> fields = scientific ? SCIENTIFIC_FIELDS : CLICK_FIELDS;
        String query = "/api/v1.0/attribution/ad-account?attributionModel=" + model + "&startDate=" + range[0] + "&endDate=" + range[1]
                + "&fields=" + String.join(",", fields) + "&ids=" + adAccount + "&sourceConfiguration=" + config
                + (adGrouping.isEmpty() ? "" : "&adLevelDateGroupingOption=" + adGrouping) + x.query()
                + (visibility ? "&reportSourceVisibility=true" : "");
        String label = "seed " + d.seed + " GET " + query;
        Response r = get(d.key, query);
        if (r.status() != 200) {
            failures.add(label + ": " + r.status() + " " + r.raw());
            return;
        }
        compare(expected, r.body().get("result"), fields, label);
        order(r.body().get("result"), null, label);
        covered.add(model + "/ad-account/" + (adGrouping.isEmpty() ? "(default)" : adGrouping) + (visibility ? "/visibility" : ""));
    }

    /**
     * A keyword level (docs "Keyword levels") over the registered keywords of the platform's ad groups and one
     * unknown: the click models and scientific with keywords as entities; no spend per keyword, so cost and what is
     * computed from it are null; rows carry {@code adgroupId} and the keyword id.
     */
    private void keywords(ApiWrittenDataSet d, String level, String model, String grouping, String config, int window, int days, String[] range, ApiWrittenExtra x) {
        String platform = level.startsWith("google_v2") ? ApiWrittenDataGenerator.GOOGLE_V2 : ApiWrittenDataGenerator.GOOGLE;
        Set<String> registered = d.keywords(platform);
        if (registered.isEmpty()) {
            return;
        }
        x = x.withoutStatus();
        LocalDate from = LocalDate.parse(range[0]);
        LocalDate to = LocalDate.parse(range[1]);
        AttributionOracle.Data data = d.data(platform, from, to);
        AttributionOracle.Opts opts = x.opts(d, grouping, registered);
        boolean scientific = model.equals("scientific");
        Map<String, Map<String, Object>> expected = scientific
                ? ScientificOracle.compute(data, "keyword", config, window, days, start(d, range[0]), end(d, range[1]), from, to, opts, null, false)
                : AttributionOracle.compute(data, "keyword", model, config, window, start(d, range[0]), end(d, range[1]), from, to, opts);
        expected.values().forEach(row -> List.of("cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer",
                "cost_per_lead").forEach(f -> row.put(f, null)));
        Map<String, List<String>> groups = new LinkedHashMap<>();
        for (String k : registered) {
            groups.computeIfAbsent(k.substring(0, k.indexOf(':')), g -> new ArrayList<>()).add(k.substring(k.indexOf(':') + 1));
        }
        String unknownGroup = groups.keySet().iterator().next();
        groups.get(unknownGroup).add("555");
        StringBuilder ids = new StringBuilder();
        groups.forEach((g, ks) -> ids.append(ids.length() == 0 ? "" : ",").append(g).append(":[").append(String.join(",", ks)).append(']'));
        List<String> fields = SCIENTIFIC_FIELDS;
        String query = "/api/v1.0/attribution?attributionModel=" + model + "&startDate=" + range[0] + "&endDate=" + range[1] + "&level=" + level
                + "&fields=" + String.join(",", fields) + "&keywordsIds=" + enc(ids.toString()) + "&sourceConfiguration=" + config
                + "&windowAttributionDaysRange=" + window + "&scientificDaysRange=" + days + "&timeGroupingOption=" + grouping + x.query();
        String label = "seed " + d.seed + " GET " + query;
        Response r = get(d.key, query);
        if (r.status() != 200) {
            failures.add(label + ": " + r.status() + " " + r.raw());
            return;
        }
        String message = r.message() == null ? "" : r.message();
        if (!message.contains("Id not found at level " + level + ": " + unknownGroup + ":555")) {
            failures.add(label + ": message " + message + " should name " + unknownGroup + ":555");
        }
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (JsonNode row : r.body().get("result")) {
            com.fasterxml.jackson.databind.node.ObjectNode copy = row.deepCopy();
            if (row.has("adgroupId")) {
                copy.put("id", row.get("adgroupId").asText() + ":" + row.get("id").asText());
            }
            rows.add(copy);
        }
        compare(expected, rows, fields, label);
        keywordRows += expected.size();
        covered.add(model + "/" + level + "/" + grouping);
    }

    /** The rows' ids are in the order of {@code ids} (null: ascending, the date buckets oldest first). */
    private void order(JsonNode result, List<String> ids, String label) {
        List<String> got = new ArrayList<>();
        result.forEach(row -> got.add(row.get("id").asText()));
        List<String> want = ids == null ? got.stream().sorted().toList() : ids.stream().filter(got::contains).toList();
        if (!want.equals(got)) {
            failures.add(label + ": rows in the order " + got + ", expected " + want);
        }
    }

    /** Every expected row against the answer's rows by id: decimals exactly, fractional counts (Double) to 1e-9. */
    private void compare(Map<String, Map<String, Object>> expected, JsonNode result, List<String> fields, String label) {
        comparisons++;
        Map<String, JsonNode> actual = new LinkedHashMap<>();
        result.forEach(row -> actual.put(row.get("id").asText(), row));
        if (!expected.keySet().equals(actual.keySet())) {
            failures.add(label + ": rows " + actual.keySet() + ", expected " + expected.keySet() + "; expected rows " + expected
                    + "; got " + result);
        }
        for (var e : expected.entrySet()) {
            JsonNode row = actual.get(e.getKey());
            if (row == null) {
                continue;
            }
            rowsCompared++;
            for (String f : fields) {
                Object want = e.getValue().get(f);
                JsonNode got = row.get(f);
                String where = label + " id " + e.getKey() + " " + f;
                if (want == null) {
                    if (got != null && !got.isNull()) {
                        failures.add(where + ": expected null, got " + got);
                    }
                } else if (got == null || got.isNull()) {
                    failures.add(where + ": expected " + want + ", got " + got);
                } else if (want instanceof Double w) {
                    if (Math.abs(w - got.asDouble()) > 1e-9) {
                        failures.add(where + ": expected " + w + ", got " + got);
                    }
                } else if (new BigDecimal(want.toString()).compareTo(got.decimalValue()) != 0) {
                    failures.add(where + ": expected " + want + ", got " + got);
                }
            }
        }
    }
}
