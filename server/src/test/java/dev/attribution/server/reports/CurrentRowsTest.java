package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.cdc.CdcSettings;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.CurrentRow;
import dev.attribution.query.attribution.clickhouse.ClicksByAd;
import dev.attribution.query.attribution.clickhouse.ClicksByLead;
import dev.attribution.query.attribution.clickhouse.CurrentClicks;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Credit;
import dev.attribution.query.attribution.clickhouse.SaleCredits;
import dev.attribution.query.attribution.models.scientific.ConversionTouches;
import dev.attribution.query.attribution.request.AttributionRequest.SourceConfiguration;
import dev.attribution.query.attribution.clickhouse.CurrentSales;
import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.ScopeAds;
import dev.attribution.query.attribution.clickhouse.SpendDays;
import dev.attribution.query.attribution.clickhouse.Sql;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.ApiTest.WriteRequest;
import dev.attribution.server.support.TwoEngines;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each Java current-row builder of {@code query/attribution/clickhouse} gives the rows of the {@code *_current} view
 * of its table for the same data: {@link ApiWrittenFixture} written through the API, then changes that leave several
 * versions and deletes — an order replaced (its sales soft-deleted and recreated, their conversion touches deleted),
 * the spend file re-imported with other amounts, and, written into PostgreSQL as any writer would (the API has no
 * click update), a click made organic and a click deleted. Checked on the test stack's ClickHouse 18.16, and on
 * both engines of {@link TwoEngines} (18.16 and a current release) after copying the account's streamed rows there
 * (that test is skipped outside CI when the chdb-http tool is not beside the repository).
 */
@MicronautTest(transactional = false)
class CurrentRowsTest extends ApiTest {

    @Inject
    ClickHouseGateway stack;

    @Inject
    CdcSettings cdc;

    private String acc;

    @BeforeAll
    void data() {
        String key = newUnthrottledAccount("UTC", Roles.ALL);
        importSpend(key, ApiWrittenFixture.SPEND);
        writePhases(ApiWrittenFixture.phases(key));
        acc = get(key, "/api/v1.0/user-info").body().get("result").get("accountId").asText();
        importSpend(key, ApiWrittenFixture.SPEND.replace("10.00", "12.50"));
        writePhases(List.of(List.of(new WriteRequest(key, "PUT", "/api/v1.0/orders/o2",
                "{\"items\":[{\"name\":\"Course two b\",\"price\":55.00,\"isRebill\":true}]}"))));
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.execute("UPDATE clicks SET is_organic = true WHERE account_id = '" + acc + "' AND adspend_ad_id = 'adB'");
            s.execute("DELETE FROM clicks WHERE account_id = '" + acc + "' AND adspend_ad_id = 'adC'");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        awaitCdcCaughtUp();
    }

    @Test
    void theDataHasSupersededAndDeletedVersions() {
        String db = stack.database();
        // tables with deleted rows: a delete's last version stays in the table whatever the background merges did,
        // and the view leaves it out, so there are more versions than current rows (a table only superseded, such as
        // ad_spend_daily, may have been merged down to one version per key: it is checked by its new values below)
        for (String[] t : new String[][]{{"sales", "sales_current"}, {"clicks", "clicks_current"},
                {"conversion_touches", "conversion_touches_current"}, {"sale_credits", "sale_credits_current"}}) {
            long raw = count(stack, "SELECT count() AS n FROM " + db + "." + t[0] + " WHERE account_id = " + Sql.str(acc));
            long current = count(stack, "SELECT count() AS n FROM " + db + "." + t[1] + " WHERE account_id = " + Sql.str(acc));
            assertTrue(current > 0 && raw > current, t[0] + ": " + raw + " versions, " + current + " current rows");
        }
        // the re-imported spend superseded the first import: the current day of adA is 12.50, no longer 10.00
        assertTrue(count(stack, "SELECT count() AS n FROM " + db + ".ad_spend_daily_current WHERE account_id = " + Sql.str(acc)
                + " AND ad_id = 'adA' AND day = toDate('2026-11-02') AND spend = toDecimal64(12.50, 2)") == 1);
        // the replaced order's old sale is still in the table, soft-deleted, and the deleted click too
        assertTrue(count(stack, "SELECT count() AS n FROM " + db + ".sales WHERE account_id = " + Sql.str(acc) + " AND deleted = 1") > 0);
        assertTrue(count(stack, "SELECT count() AS n FROM " + db + ".clicks WHERE account_id = " + Sql.str(acc) + " AND is_deleted = 1") > 0);
    }

    @Test
    void buildersGiveTheViewsRowsOnTheStack() {
        assertBuildersMatchViews(stack, acc);
    }

    @Test
    void buildersGiveTheViewsRowsOnBothEngines() throws Exception {
        try (TwoEngines two = TwoEngines.start("rows")) {
            List<String> tables = stack.select("SELECT table FROM system.columns WHERE database = '" + stack.database() + "' AND name = 'account_id'")
                    .stream().map(r -> r.get("table").asText()).filter(cdc.getTables()::contains).toList();
            for (Map.Entry<String, ClickHouseGateway> e : two.engines().entrySet()) {
                for (String table : tables) {
                    copy(table, e.getValue());
                }
                assertBuildersMatchViews(e.getValue(), acc);
            }
        }
    }

    /**
     * derived/sale_credits.sql (067's backfill, the bench's derivation) gives, from the streamed conversion_touches
     * and sales, the current rows PostgreSQL's triggers streamed into sale_credits.
     */
    @Test
    void derivedSaleCreditsAreTheStreamedOnes() throws Exception {
        String db = stack.database();
        String check = "sale_credits_check_" + System.nanoTime();
        stack.execute("CREATE TABLE " + db + "." + check + " AS " + db + ".sale_credits");
        try {
            String sql;
            try (var in = getClass().getClassLoader().getResourceAsStream("clickhouse/derived/sale_credits.sql")) {
                sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            for (String line : sql.split("\n")) {
                if (!line.isBlank() && !line.startsWith("--")) {
                    stack.execute(line.replace("INSERT INTO {db}.sale_credits ", "INSERT INTO {db}." + check + " ").replace("{db}", db)
                            .replace("{scope}", "account_id = " + Sql.str(acc)));
                }
            }
            String current = CurrentRow.latest("lead_id", "l") + ", " + CurrentRow.latest("price", "p") + ", " + CurrentRow.latest("refunded", "r")
                    + ", " + CurrentRow.latest("last_paid_click_id", "lp") + ", " + CurrentRow.latest("first_organic_click_id", "fo");
            String rows = " WHERE account_id = " + Sql.str(acc) + " GROUP BY sale_id, ad, platform, sale_date HAVING " + CurrentRow.live()
                    + " ORDER BY sale_id, ad, platform";
            List<JsonNode> streamed = stack.select("SELECT sale_id, ad, platform, sale_date, " + current + " FROM " + db + ".sale_credits" + rows);
            assertFalse(streamed.isEmpty());
            assertEquals(streamed, stack.select("SELECT sale_id, ad, platform, sale_date, " + current + " FROM " + db + "." + check + rows));
        } finally {
            stack.execute("DROP TABLE IF EXISTS " + db + "." + check);
        }
    }

    /** The account's rows of a streamed table, as the CDC sink wrote them, into {@code engine}. */
    private void copy(String table, ClickHouseGateway engine) {
        List<JsonNode> rows = stack.select("SELECT * FROM " + stack.database() + "." + table + " WHERE account_id = " + Sql.str(acc));
        if (!rows.isEmpty()) {
            engine.insertJsonEachRow(table, rows.stream().map(JsonNode::toString).collect(Collectors.joining("\n", "", "\n"))
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void assertBuildersMatchViews(ClickHouseGateway g, String acc) {
        String db = g.database();
        String where = " WHERE account_id = " + Sql.str(acc);
        Instant from = Instant.EPOCH;

        String saleColumns = Arrays.stream(CurrentSales.Column.values()).map(c -> c.current).collect(Collectors.joining(", "));
        same(g, "sales", CurrentSales.dated(db, acc, from, Sql.LATEST).columns(EnumSet.allOf(CurrentSales.Column.class)).select().sql(),
                "SELECT account_id, lead_id, id, " + saleColumns + " FROM " + db + ".sales_current" + where, "id");

        EnumSet<CurrentClicks.Column> all = EnumSet.allOf(CurrentClicks.Column.class);
        String clickView = "SELECT account_id, id, " + all.stream().map(CurrentClicks.Column::sql).collect(Collectors.joining(", "))
                + " FROM " + db + ".clicks_current" + where;
        same(g, "clicks by id", CurrentClicks.matching(db, acc, "1", all).sql(), clickView, "id");
        same(g, "clicks merged", CurrentClicks.merged(db, acc, "1", all).sql(), clickView, "id");

        List<String> adIds = g.select("SELECT ad_id FROM " + db + ".ads_current" + where).stream()
                .map(r -> r.get("ad_id").asText()).toList();
        ScopeAds everyAd = ScopeAds.read(g, acc, AdScope.of(null, AdScope.Column.ad_id, adIds));
        same(g, "clicks by ad", ClicksByAd.current(db, acc, everyAd, from, Sql.LATEST).sql(),
                "SELECT id, lead_id, click_date, source_link_tag, is_organic, integration_type AS attributed_platform, "
                        + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS attributed_ad FROM " + db + ".clicks_current" + where
                        + " AND " + everyAd.condition("if(adspend_ad_id != '', adspend_ad_id, ad_source_id)", "integration_type"), "id");

        // counted over every version (ClicksByAd.assignedCounts): the current clicks' counts; adB's click has two
        // versions, adC's is deleted
        same(g, "clicks counted over their versions", ClicksByAd.assignedCounts(db, acc, everyAd, from, Sql.LATEST, "ad").sql(),
                "SELECT attributed_ad AS row_key, " + ClicksByAd.CURRENT_COUNTS + " FROM (SELECT id, lead_id, if(adspend_ad_id != '', adspend_ad_id, "
                        + "ad_source_id) AS attributed_ad FROM " + db + ".clicks_current" + where + " AND lead_id != '' AND "
                        + everyAd.condition("if(adspend_ad_id != '', adspend_ad_id, ad_source_id)", "integration_type") + ") AS v GROUP BY row_key",
                "row_key");

        same(g, "clicks by lead", "SELECT id, lead_id, click_date, is_organic, source_link_tag FROM "
                        + ClicksByLead.newest(db, acc, "", "1", "id, lead_id, click_date", "lead_id, click_date, id, ad_key", "deleted").subquery("n")
                        + " WHERE deleted = 0",
                "SELECT id, lead_id, click_date, is_organic, source_link_tag FROM " + db + ".clicks_current" + where + " AND lead_id != ''", "id");

        same(g, "spend days", SpendDays.between(db, acc, LocalDate.of(1970, 1, 1), LocalDate.of(2100, 1, 1)).sql(),
                "SELECT account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id, spend, reported_conversions, reported_revenue FROM "
                        + db + ".ad_spend_daily_current" + where, "platform, ad_id, day");

        List<CurrentConversionTouches.Pick> picks = List.of(CurrentConversionTouches.Pick.values());
        String pickColumns = viewPickColumns(picks);
        for (CurrentConversionTouches.Type type : CurrentConversionTouches.Type.values()) {
            same(g, "conversion touches " + type, CurrentConversionTouches.current(db, acc, type, from, null, true, picks, null).sql(),
                    "SELECT conversion_id, touch_lead_id, touch_conversion_at, " + pickColumns + " FROM " + db + ".conversion_touches_current" + where
                            + " AND conversion_type = " + Sql.str(type.name()), "conversion_id");
        }
        saleCredits(g, acc, everyAd);
    }

    /**
     * The credited sales of {@link SaleCredits}: the view's rows, with the credit computed over them, kept where the
     * row's ad is the credited click's (a paid-first last click; an all-sources first click).
     */
    private static void saleCredits(ClickHouseGateway g, String acc, ScopeAds everyAd) {
        String db = g.database();
        String saleColumns = Arrays.stream(CurrentSales.Column.values()).filter(c -> c != CurrentSales.Column.SALE_DATE)
                .map(c -> c.current).collect(Collectors.joining(", "));
        for (Credit credit : List.of(ConversionTouches.credit(SourceConfiguration.prioritize_paid, false, 0, SaleCredits.SALE_DATE),
                ConversionTouches.credit(SourceConfiguration.all_sources, true, 0, SaleCredits.SALE_DATE),
                ConversionTouches.credit(SourceConfiguration.prioritize_organic, false, 30, SaleCredits.SALE_DATE))) {
            String picks = viewPickColumns(List.of(credit.paid(), credit.organic()));
            same(g, "sale credits " + credit.pick(), SaleCredits.credited(db, acc, Instant.EPOCH, Sql.LATEST, credit, everyAd,
                            EnumSet.allOf(CurrentSales.Column.class)).sql(),
                    "SELECT account_id, sale_id AS id, sale_date AS sale_at, credit_lead_id, " + saleColumns + ", " + picks + ", "
                            + String.join(", ", credit.items()) + " FROM " + db + ".sale_credits_current WHERE account_id = " + Sql.str(acc)
                            + " AND pick != 0 AND attributed_ad = ad AND attributed_platform = platform", "id");
        }
    }

    /** The picks' four columns each, as the current-row views name them. */
    private static String viewPickColumns(List<CurrentConversionTouches.Pick> picks) {
        return picks.stream().map(p -> p.prefix).map(p -> p + "_click_id, " + p + "_click_date, " + p + "_ad, " + p + "_platform")
                .collect(Collectors.joining(", "));
    }

    /** The builder's rows and the view's, ordered by {@code orderBy}: equal and not empty. */
    private static void same(ClickHouseGateway g, String what, String builder, String view, String orderBy) {
        List<JsonNode> expected = g.select("SELECT * FROM (" + view + ") AS v ORDER BY " + orderBy);
        List<JsonNode> actual = g.select("SELECT * FROM (" + builder + ") AS b ORDER BY " + orderBy);
        assertFalse(expected.isEmpty(), what + ": the view has no row");
        assertEquals(expected, actual, what + " on " + g.database());
    }

    private static long count(ClickHouseGateway g, String sql) {
        return g.select(sql).get(0).get("n").asLong();
    }
}
