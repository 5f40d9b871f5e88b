package dev.attribution.server.demo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.server.support.AdminRuns;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code scripts/admin demo seed} as a newcomer runs it: a small account (200 leads, 2 months) that the API then
 * shows in full — PostgreSQL reads right away, ClickHouse reports once CDC has caught up — and that the same seed
 * reproduces row for row.
 */
@MicronautTest(transactional = false)
class DemoSeedTest extends ApiTest {

    static final String END = "2026-10-31";

    JsonNode seeded;
    String key;
    String account;

    @BeforeAll
    void seed() throws IOException {
        // the admin command builds its own context: point it at this JVM's servers
        TestStack.get().properties().forEach(System::setProperty);
        seeded = admin("demo", "seed", "--leads", "200", "--months", "2", "--seed", "7", "--end-date", END);
        key = seeded.get("apiKey").asText();
        account = seeded.get("accountId").asText();
    }

    @AfterAll
    void clear() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    @Test
    void summaryDescribesARealisticAccount() {
        assertEquals(200, seeded.get("leads").asInt());
        assertEquals("2026-09-01", seeded.get("firstDay").asText());
        assertEquals(END, seeded.get("lastDay").asText());
        assertEquals(3, seeded.get("adAccounts").asInt());
        assertEquals(24, seeded.get("ads").asInt());
        assertEquals(24 * 61, seeded.get("spendRows").asInt());
        assertTrue(seeded.get("paidClicks").asInt() > 200 && seeded.get("organicClicks").asInt() > 20, seeded.toString());
        assertTrue(seeded.get("orders").asInt() > 20, seeded.toString());
        assertTrue(seeded.get("sales").asInt() >= seeded.get("orders").asInt());
        assertTrue(seeded.get("rebillSales").asInt() > 0, seeded.toString());
        assertTrue(seeded.get("refundedOrders").asInt() > 0, seeded.toString());
        assertTrue(seeded.get("calls").asInt() > 5 && seeded.get("carts").asInt() > 5 && seeded.get("subscriptions").asInt() > 0,
                seeded.toString());
    }

    @Test
    void postgresqlReadsShowEverySeededRow() {
        assertEquals(seeded.get("leads").asInt(), countPages("/api/v1.0/leads?pageSize=250"));
        assertEquals(seeded.get("sales").asInt(), countPages("/api/v1.0/sales?pageSize=250"));
        assertEquals(seeded.get("calls").asInt(), countPages("/api/v1.0/calls?pageSize=250"));
        assertEquals(seeded.get("subscriptions").asInt(), countPages("/api/v1.0/subscriptions?pageSize=250"));
        assertEquals(seeded.get("ads").asInt(), countPages("/api/v1.0/ads?pageSize=250"));
    }

    @Test
    void rowsKeepTheCommandSidesInvariants() {
        // one first purchase per buyer, one latest order per buyer, rebills never first, refunds carry their amount
        assertEquals(0, pg("SELECT count(*) FROM (SELECT lead_id FROM sales WHERE account_id = ? GROUP BY lead_id "
                + "HAVING count(DISTINCT order_id) FILTER (WHERE last_purchase) <> 1) x"));
        assertEquals(0, pg("SELECT count(*) FROM (SELECT lead_id FROM sales WHERE account_id = ? GROUP BY lead_id "
                + "HAVING count(DISTINCT order_id) FILTER (WHERE first_sale) <> 1 AND bool_or(NOT recurring)) x"));
        assertEquals(0, pg("SELECT count(*) FROM sales WHERE account_id = ? AND recurring AND first_sale"));
        assertEquals(0, pg("SELECT count(*) FROM sales WHERE account_id = ? AND (usd_price IS DISTINCT FROM price "
                + "OR refunded <> (refund_date IS NOT NULL) OR (refunded AND refunded_amount <> price))"));
        // every sale has a click of its lead at or before it (so last_click can credit it), every click a lead
        assertEquals(0, pg("SELECT count(*) FROM sales s WHERE account_id = ? AND NOT EXISTS (SELECT 1 FROM clicks c "
                + "WHERE c.account_id = s.account_id AND c.lead_id = s.lead_id AND c.click_date <= s.sale_date)"));
        assertEquals(0, pg("SELECT count(*) FROM clicks WHERE account_id = ? AND (lead_id IS NULL "
                + "OR is_organic <> (adspend_ad_id IS NULL) OR source_link_tag IS NULL)"));
        // a paid click names an ad of the hierarchy, on its platform, in its ad set
        assertEquals(0, pg("SELECT count(*) FROM clicks c WHERE account_id = ? AND NOT is_organic AND NOT EXISTS (SELECT 1 FROM ads a "
                + "WHERE a.account_id = c.account_id AND a.platform = c.integration_type AND a.ad_id = c.adspend_ad_id "
                + "AND a.ad_set_id = c.ad_source_id)"));
        // a click's source tag is on its lead, a lead's stage is the last one it entered, one first call per caller
        assertEquals(0, pg("SELECT count(*) FROM clicks c WHERE account_id = ? AND NOT EXISTS (SELECT 1 FROM lead_tags t "
                + "WHERE t.account_id = c.account_id AND t.lead_id = c.lead_id AND t.tag = c.source_link_tag AND t.assigned_at <= c.click_date)"));
        assertEquals(0, pg("SELECT count(*) FROM leads l WHERE account_id = ? AND stage_date <> (SELECT max(entered_at) "
                + "FROM lead_stage_history h WHERE h.account_id = l.account_id AND h.lead_id = l.id)"));
        assertEquals(0, pg("SELECT count(*) FROM (SELECT lead_id FROM calls WHERE account_id = ? GROUP BY lead_id "
                + "HAVING count(*) FILTER (WHERE first_call) <> 1) x"));
        assertEquals(0, pg("SELECT count(*) FROM carts c WHERE account_id = ? AND order_id IS NOT NULL AND NOT EXISTS "
                + "(SELECT 1 FROM orders o WHERE o.account_id = c.account_id AND o.id = c.order_id AND o.cart_id = c.id)"));
    }

    @Test
    void clickHouseReportsShowTheSeededAccountAfterCdc() {
        String range = "&fromDate=2026-09-01&toDate=" + END;
        int leads = seeded.get("leads").asInt();
        int sales = seeded.get("sales").asInt();
        await(() -> countPages("/api/v1.0/conversion-paths?conversionType=LEAD&pageSize=250" + range) == leads
                && countPages("/api/v1.0/conversion-paths?conversionType=SALE&pageSize=250" + range) == sales ? true : null);
        assertEquals(seeded.get("calls").asInt(), countPages("/api/v1.0/conversion-paths?conversionType=CALL&pageSize=250" + range));

        // last_click on the busiest seeded ad: clicks, leads and cost as PostgreSQL holds them (ad spend streams too)
        String ad = seeded.get("sampleAdId").asText();
        String q = "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-09-01T00:00:00&endDate=" + END
                + "T23:59:59&level=" + seeded.get("sampleLevel").asText() + "&ids=" + ad
                + "&fields=name,sales,revenue,total_revenue,clicks,leads,cost,roas";
        long clicks = pg("SELECT count(*) FROM clicks WHERE account_id = ? AND adspend_ad_id = '" + ad + "'");
        BigDecimal cost = pgDecimal("SELECT sum(spend) FROM ad_spend_daily WHERE account_id = ? AND ad_id = '" + ad + "'");
        JsonNode row = await(() -> {
            Response r = get(key, q);
            JsonNode rows = r.body() == null ? null : r.body().get("result");
            return rows != null && rows.size() == 1 && rows.get(0).get("clicks").asLong() == clicks
                    && rows.get(0).get("cost").decimalValue().compareTo(cost) == 0 ? rows.get(0) : null;
        });
        assertEquals(ad, row.get("id").asText());
        assertFalse(row.get("name").asText().isEmpty());
        assertTrue(row.get("leads").asLong() > 0, row.toString());
        assertTrue(row.get("sales").asLong() > 0, row.toString());
        assertTrue(row.get("total_revenue").decimalValue().signum() > 0, row.toString());
    }

    @Test
    void theSameSeedWritesTheSameRows() throws IOException {
        JsonNode again = admin("demo", "seed", "--leads", "200", "--months", "2", "--seed", "7", "--end-date", END);
        JsonNode other = admin("demo", "seed", "--leads", "200", "--months", "2", "--seed", "8", "--end-date", END);
        for (String field : new String[]{"clicks", "orders", "sales", "calls", "carts", "subscriptions", "leadTags", "sampleAdId"}) {
            assertEquals(seeded.get(field), again.get(field), field);
        }
        String fingerprint = "SELECT md5(string_agg(id || lead_id || click_date || coalesce(adspend_ad_id, '') || source_link_tag, ',' "
                + "ORDER BY id)) FROM clicks WHERE account_id = ?";
        assertEquals(pgText(fingerprint, account), pgText(fingerprint, again.get("accountId").asText()));
        assertNotEquals(pgText(fingerprint, account), pgText(fingerprint, other.get("accountId").asText()));
        String sales = "SELECT md5(string_agg(id || order_id || lead_id || price || sale_date || first_sale || refunded, ',' ORDER BY id)) "
                + "FROM sales WHERE account_id = ?";
        assertEquals(pgText(sales, account), pgText(sales, again.get("accountId").asText()));
    }

    @Test
    void badOptionsAreRefused() throws IOException {
        assertEquals(2, exit("demo", "seed", "--leads", "0"));
        assertEquals(2, exit("demo", "seed", "--months", "40"));
        assertEquals(2, exit("demo", "seed", "--account", "acc_missing"));
    }

    // ---- helpers

    private int countPages(String path) {
        int n = 0;
        String page = null;
        do {
            Response r = get(key, path + (page == null ? "" : "&pageId=" + enc(page)));
            assertEquals(200, r.status(), path + ": " + r.raw());
            n += r.body().get("result").size();
            JsonNode next = r.body().get("nextPageId");
            page = next == null || next.isNull() ? null : next.asText();
        } while (page != null);
        return n;
    }

    private long pg(String sql) {
        return Long.parseLong(pgText(sql, account));
    }

    private BigDecimal pgDecimal(String sql) {
        return new BigDecimal(pgText(sql, account));
    }

    private static String pgText(String sql, String accountId) {
        try (Connection c = TestStack.get().connect(); PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode admin(String... args) throws IOException {
        AdminRuns.Run run = AdminRuns.admin(args);
        assertEquals(0, run.exit(), "admin " + String.join(" ", args) + ": " + run.out() + run.err());
        return JsonBody.mapper().readTree(run.lastJson());
    }

    private static int exit(String... args) {
        return AdminRuns.admin(args).exit();
    }
}
