package dev.attribution.server.bi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.TwoEngines;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24 point 3: docs/clickhouse-schema.md against the live schema. On ClickHouse 18.16 and on the current engine
 * ({@link TwoEngines}: a fresh database each, every DDL file applied) every documented table and view has exactly the
 * documented columns with the documented types (a documented column that does not exist, or a column the doc does not
 * name, fails naming it), and every table or view of the database is documented or listed as not for BI. Every
 * example query of the doc runs on both engines, names at least one view, returns rows on 18.16 over data written
 * through the HTTP API, and the revenue-by-ad query gives GET /attribution's revenue per ad and per day.
 */
@MicronautTest(transactional = false)
class ClickHouseSchemaLiveDocTest extends ApiTest {

    private TwoEngines two;
    private SchemaDoc doc;
    private String key;
    private String account;

    @BeforeAll
    void start() throws Exception {
        doc = SchemaDoc.read();
        two = TwoEngines.start("schemadoc");
    }

    @AfterAll
    void stop() throws Exception {
        two.close();
    }

    @Test
    void everyDocumentedTableAndViewHasExactlyTheDocumentedColumnsOnBothEngines() {
        assertTrue(doc.columns().size() >= 30, "tables and views read from the doc: " + doc.columns().keySet());
        List<String> problems = new ArrayList<>();
        for (var engine : two.engines().entrySet()) {
            ClickHouseGateway g = engine.getValue();
            Map<String, Map<String, String>> live = new TreeMap<>();
            for (JsonNode r : g.select("SELECT table, name, type FROM system.columns WHERE database = '" + g.database() + "'")) {
                live.computeIfAbsent(r.get("table").asText(), t -> new LinkedHashMap<>()).put(r.get("name").asText(), r.get("type").asText());
            }
            for (JsonNode r : g.select("SELECT name FROM system.tables WHERE database = '" + g.database() + "'")) {
                live.computeIfAbsent(r.get("name").asText(), t -> new LinkedHashMap<>());
            }
            problems.addAll(compare(engine.getKey(), doc, live));
        }
        assertTrue(problems.isEmpty(), "docs/clickhouse-schema.md differs from the live schema:\n" + String.join("\n", problems));
    }

    /** Every difference between the doc and one engine's live schema, each naming the table and column. */
    static List<String> compare(String engine, SchemaDoc doc, Map<String, Map<String, String>> live) {
        List<String> problems = new ArrayList<>();
        doc.columns().forEach((object, cols) -> {
            Map<String, String> actual = live.get(object);
            if (actual == null) {
                problems.add(engine + ": documented " + object + " does not exist");
                return;
            }
            cols.forEach((col, type) -> {
                if (!actual.containsKey(col)) {
                    problems.add(engine + ": documented column " + object + "." + col + " does not exist");
                } else if (!actual.get(col).equals(type)) {
                    problems.add(engine + ": " + object + "." + col + " is " + actual.get(col) + ", documented " + type);
                }
            });
            actual.keySet().stream().filter(c -> !cols.containsKey(c))
                    .forEach(c -> problems.add(engine + ": column " + object + "." + c + " (" + actual.get(c) + ") is not documented"));
        });
        live.keySet().stream().filter(t -> !doc.columns().containsKey(t) && !doc.notForBi().contains(t))
                .forEach(t -> problems.add(engine + ": " + t + " is neither documented nor listed under 'Not for BI'"));
        return problems;
    }

    /** The check itself fails on a wrong doc: a missing, an extra and a retyped column are each named. */
    @Test
    void aWrongDocIsReportedColumnByColumn() {
        Map<String, Map<String, String>> live = Map.of("t", Map.of("a", "String", "b", "UInt8"), "t_current", Map.of("a", "String"));
        SchemaDoc wrong = new SchemaDoc(Map.of("t", Map.of("a", "UInt64", "refunded_amount", "String"), "t_current", Map.of("a", "String")),
                java.util.Set.of(), List.of());
        List<String> problems = compare("18.16", wrong, live);
        assertEquals(List.of("18.16: t.a is String, documented UInt64", "18.16: documented column t.refunded_amount does not exist",
                "18.16: column t.b (UInt8) is not documented"), problems.stream().sorted((x, y) -> x.contains(" is String") ? -1
                : y.contains(" is String") ? 1 : x.contains("does not exist") ? -1 : 1).toList());
        assertEquals(List.of("18.16: x is neither documented nor listed under 'Not for BI'"),
                compare("18.16", new SchemaDoc(Map.of(), java.util.Set.of(), List.of()), Map.of("x", Map.of())));
    }

    /** Writes one small account through the API: a tagged lead with a phone, clicks on two ads and an organic one, orders, a refund, a call, a subscription, a custom cost and spend. */
    private void writeAccount() {
        if (key != null) {
            return;
        }
        key = newUnthrottledAccount("UTC", Roles.ALL);
        account = directory.findActiveKey(dev.attribution.api.auth.ApiKeys.hash(key)).orElseThrow().account().id();
        importSpend(key, """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend
                FACEBOOK,act1,camp1,set1,adA,2026-11-02,10.00
                FACEBOOK,act1,camp1,set1,adB,2026-11-03,40.00
                """);
        String tag = processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"BI set\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"set1\","
                + "\"accountId\":\"act1\",\"campaignId\":\"camp1\"}", "CREATE_SOURCE_LINK").get("tag").asText();
        processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"SEO\",\"isOrganic\":true}", "CREATE_SOURCE_LINK");
        processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"a@bi.test\",\"tags\":[\"!webinar\"],\"tagsDate\":\"2025-03-10T10:00:00Z\","
                + "\"phoneNumbers\":\"+1 555 010 0042\",\"stage\":\"Won\"}", "CREATE_LEAD");
        for (String lead : List.of("b", "c")) {
            processed(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + lead + "@bi.test\"}", "CREATE_LEAD");
        }
        for (String[] c : new String[][]{{"a", "adA", "2026-11-02T10:00:00Z"}, {"b", "adB", "2026-11-02T11:00:00Z"},
                {"b", "adA", "2026-11-03T09:00:00Z"}}) {
            processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.bi.test/l\",\"sourceLinkTag\":\"" + tag + "\",\"date\":\""
                    + c[2] + "\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"set1\",\"adspendAdId\":\"" + c[1] + "\",\"email\":\"" + c[0]
                    + "@bi.test\"}", "CREATE_CLICK");
        }
        processed(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.bi.test/seo\",\"sourceLinkTag\":\"@seo\",\"isOrganic\":true,"
                + "\"date\":\"2026-11-02T12:00:00Z\",\"email\":\"c@bi.test\"}", "CREATE_CLICK");
        for (String[] o : new String[][]{{"o1", "a", "2026-11-03T10:00:00Z", "10.00", "5.50"}, {"o2", "b", "2026-11-02T15:00:00Z", "20.00", "1.25"},
                {"o3", "b", "2026-11-04T10:00:00Z", "7.25", "0.75"}, {"o4", "c", "2026-11-04T11:00:00Z", "30.00", "3.00"}}) {
            processed(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"" + o[0] + "\",\"email\":\"" + o[1] + "@bi.test\",\"date\":\"" + o[2]
                    + "\",\"items\":[{\"name\":\"Widget\",\"price\":" + o[3] + "},{\"name\":\"Gadget\",\"price\":" + o[4] + "}]}", "CREATE_ORDER");
        }
        write(key, "DELETE", "/api/v1.0/orders/o3", null);
        processed(key, "POST", "/api/v1.0/calls", "{\"name\":\"Demo call\",\"email\":\"a@bi.test\",\"date\":\"2026-11-05T10:00:00Z\",\"state\":\"QUALIFIED\"}",
                "CREATE_CALL");
        processed(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"b@bi.test\",\"status\":\"ACTIVE\",\"startDate\":\"2026-11-01\",\"price\":5,"
                + "\"periodicity\":\"MONTH\",\"name\":\"Pro\"}", "CREATE_SUBSCRIPTION");
        processed(key, "POST", "/api/v1.0/custom-costs", "{\"name\":\"Agency\",\"startDate\":\"2026-11-01\",\"frequency\":\"DAILY\",\"cost\":3,"
                + "\"tags\":[\"" + tag + "\"]}", "CREATE_CUSTOM_COST");
        awaitCdcCaughtUp();
    }

    private static String onAccount(String sql, String database, String account) {
        return sql.replace("'acc_123'", "'" + account + "'").replace("attribution.", database + ".");
    }

    @Test
    void everyExampleQueryRunsOnBothEnginesAndAnswersOverApiWrittenData() {
        writeAccount();
        assertTrue(doc.examples().size() >= 10, "examples read: " + doc.examples().size());
        List<String> views = doc.columns().keySet().stream().filter(v -> v.endsWith("_current")).toList();
        for (String view : views) {
            assertTrue(doc.examples().stream().anyMatch(q -> q.contains("attribution." + view + "\n") || q.contains("attribution." + view + " ")),
                    "no example query reads " + view);
        }
        ClickHouseGateway current = two.engines().get("current");
        for (String example : doc.examples()) {
            current.select(onAccount(example, current.database(), "acc_123"));
            String rows = TestStack.get().clickhouse(onAccount(example, TestStack.get().clickhouseDatabase(), account) + " FORMAT TSV");
            assertFalse(rows.isBlank(), "no rows on 18.16 over the API-written account:\n" + example);
        }
    }

    @Test
    void revenueByAdByDayEqualsTheApisRevenue() {
        writeAccount();
        String example = doc.examples().stream().filter(q -> q.contains("conversion_touches_current") && q.contains("revenue")).findFirst().orElseThrow();
        Map<String, BigDecimal> byAd = new TreeMap<>();
        Map<String, BigDecimal> byDay = new TreeMap<>();
        String tsv = TestStack.get().clickhouse(onAccount(example, TestStack.get().clickhouseDatabase(), account) + " FORMAT TSV");
        for (String line : tsv.strip().split("\n")) {
            String[] f = line.split("\t");
            byDay.merge(f[0], new BigDecimal(f[3]), BigDecimal::add);
            byAd.merge(f[1], new BigDecimal(f[3]), BigDecimal::add);
        }
        // a: 15.50 on adA (11-03); b: 21.25 on adB (11-02, before its adA click) and 8.00 on adA (11-04, refunded: still revenue); c organic
        assertEquals(Map.of("adA", new BigDecimal("23.50"), "adB", new BigDecimal("21.25")), byAd);
        // the same revenue by ad read from sale_credits_current alone (no join)
        String byAdExample = doc.examples().stream().filter(q -> q.contains("sale_credits_current") && q.contains("revenue")).findFirst().orElseThrow();
        Map<String, BigDecimal> fromCredits = new TreeMap<>();
        for (String line : TestStack.get().clickhouse(onAccount(byAdExample, TestStack.get().clickhouseDatabase(), account) + " FORMAT TSV")
                .strip().split("\n")) {
            String[] f = line.split("\t");
            fromCredits.put(f[0], new BigDecimal(f[2]));
        }
        assertEquals(byAd, fromCredits);
        String range = "&startDate=2026-11-01&endDate=2026-11-20&level=facebook_ad&fields=revenue&ids=" + enc("\"adA\",\"adB\"");
        Map<String, BigDecimal> apiByAd = new TreeMap<>();
        Response r = get(key, "/api/v1.0/attribution?attributionModel=last_click&sourceConfiguration=prioritize_paid" + range);
        assertEquals(200, r.status(), r.raw());
        r.body().get("result").forEach(row -> apiByAd.put(row.get("id").asText(), row.get("revenue").decimalValue().setScale(2)));
        assertEquals(byAd, apiByAd);
        Map<String, BigDecimal> apiByDay = new TreeMap<>();
        r = get(key, "/api/v1.0/attribution?attributionModel=last_click&timeGroupingOption=day" + range);
        assertEquals(200, r.status(), r.raw());
        r.body().get("result").forEach(row -> {
            if (row.get("revenue").decimalValue().signum() != 0) {
                apiByDay.put(row.get("id").asText(), row.get("revenue").decimalValue().setScale(2));
            }
        });
        assertEquals(byDay, apiByDay);
    }
}
