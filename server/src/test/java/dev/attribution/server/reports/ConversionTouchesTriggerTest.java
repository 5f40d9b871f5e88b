package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.cdc.Erasure;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The conversion_touches projection kept by PostgreSQL's triggers (V46), end to end: each change is written with
 * plain SQL into PostgreSQL (as any writer would), streamed by the CDC bridge, and GET /attribution must credit the
 * sales as the click rule says after it — late-connected, backdated, re-attributed and deleted clicks, deleted
 * sales, a call moved to another date, a price change and a refund (the amounts sale_credits copies, V103), a bulk
 * statement, and the erasure of a lead (no row of it left in ClickHouse).
 */
@MicronautTest(transactional = false)
class ConversionTouchesTriggerTest extends ApiTest {

    @Inject
    Erasure erasure;

    String acc;
    String key;

    private void sql(String... statements) {
        try (Connection c = TestStack.get().connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement.replace("{acc}", "'" + acc + "'"));
                }
            }
            c.commit();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void click(String id, String lead, String at, String ad, boolean organic) {
        sql("INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, is_organic, integration_type, adspend_ad_id, created_at) "
                + "VALUES ({acc}, '" + id + "', " + (lead == null ? "NULL" : "'" + lead + "'") + ", '" + at + "+00', 'https://x.test', "
                + organic + ", 'FACEBOOK', '" + ad + "', now())");
    }

    private static String sale(String id, String lead, String at) {
        return "INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price, "
                + "discount, taxes, shipping, hard_cost, cost_of_goods, currency, usd_price, recurring, first_sale, sale_date, created_at, updated_at) "
                + "VALUES ({acc}, '" + id + "', 'o" + id + "', '" + lead + "', '" + lead + "', 'P', 0, 1, 10, 10, 0, 0, 0, 0, 0, 'USD', 10, false, true, '"
                + at + "+00', now(), now())";
    }

    /** ad → sales and calls credited over 2026-11-01..18 under the model and sourceConfiguration. */
    private Map<String, String> credited(String model, String sources) {
        Response r = get(key, "/api/v1.0/attribution?attributionModel=" + model + "&sourceConfiguration=" + sources
                + "&startDate=2026-11-01&endDate=2026-11-18&level=facebook_ad&fields=sales,calls&ids=" + enc("\"adA\",\"adB\",\"adC\""));
        assertEquals(200, r.status(), r.raw());
        Map<String, String> out = new TreeMap<>();
        for (JsonNode row : r.body().get("result")) {
            long sales = row.get("sales").asLong();
            long calls = row.get("calls").asLong();
            if (sales != 0 || calls != 0) {
                out.put(row.get("id").asText(), sales + "/" + calls);
            }
        }
        return out;
    }

    /** ad → revenue credited over 2026-11-01..18 (last_click, prioritize_paid), for the ads with some. */
    private Map<String, String> revenue() {
        Response r = get(key, "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-18&level=facebook_ad"
                + "&fields=revenue&ids=" + enc("\"adA\",\"adB\",\"adC\""));
        assertEquals(200, r.status(), r.raw());
        Map<String, String> out = new TreeMap<>();
        for (JsonNode row : r.body().get("result")) {
            if (row.get("revenue").decimalValue().signum() != 0) {
                out.put(row.get("id").asText(), row.get("revenue").decimalValue().setScale(2).toPlainString());
            }
        }
        return out;
    }

    /** Waits until the report (streamed through CDC) gives {@code want}; fails with the last answer otherwise. */
    private void expect(String model, String sources, Map<String, String> want) {
        expect(() -> credited(model, sources), want, model + " " + sources);
    }

    private void expect(java.util.function.Supplier<Map<String, String>> report, Map<String, String> want, String what) {
        AtomicReference<Map<String, String>> last = new AtomicReference<>();
        try {
            await(() -> {
                last.set(report.get());
                return want.equals(last.get()) ? true : null;
            });
        } catch (AssertionError e) {
            assertEquals(want, last.get(), what);
        }
    }

    @Test
    void everyWriteKeepsTheProjectionExact() {
        acc = RequestIds.next("acc_");
        directory.createAccount(acc, "Touches " + acc, null, ZoneOffset.UTC, "USD");
        key = ApiKeys.newKey();
        directory.createKey(acc, ApiKeys.hash(key), Roles.ALL, false);
        sql("INSERT INTO ads (account_id, platform, ad_id, ad_account_id, name) VALUES ({acc}, 'FACEBOOK', 'adA', 'act1', 'A'), "
                        + "({acc}, 'FACEBOOK', 'adB', 'act1', 'B'), ({acc}, 'FACEBOOK', 'adC', 'act1', 'C')",
                "INSERT INTO leads (account_id, id, email, created_at, updated_at) VALUES ({acc}, 'L1', 'l1@x.test', now(), now()), "
                        + "({acc}, 'L2', 'l2@x.test', now(), now())");
        click("k1", "L1", "2026-11-02 10:00:00", "adA", false);
        sql(sale("s1", "L1", "2026-11-03 10:00:00"));
        expect("last_click", "prioritize_paid", Map.of("adA", "1/0"));

        // a click connected to the lead later (lead_id set by an UPDATE), newer than k1: it takes the sale
        click("k2", null, "2026-11-02 12:00:00", "adB", false);
        expect("last_click", "prioritize_paid", Map.of("adA", "1/0"));
        sql("UPDATE clicks SET lead_id = 'L1' WHERE account_id = {acc} AND id = 'k2'");
        expect("last_click", "prioritize_paid", Map.of("adB", "1/0"));

        // a backdated click (older than both) becomes the first click; one after the sale changes nothing
        click("k3", "L1", "2026-11-01 08:00:00", "adC", false);
        click("k4", "L1", "2026-11-04 08:00:00", "adA", false);
        expect("first_click", "prioritize_paid", Map.of("adC", "1/0"));
        expect("last_click", "prioritize_paid", Map.of("adB", "1/0"));

        // k2 re-attributed to an organic source: prioritize_paid falls back to the latest paid click (k1),
        // all_sources keeps the latest click, prioritize_organic takes k2
        sql("UPDATE clicks SET is_organic = true, source_link_tag = '@seo' WHERE account_id = {acc} AND id = 'k2'");
        expect("last_click", "prioritize_paid", Map.of("adA", "1/0"));
        expect("last_click", "all_sources", Map.of("adB", "1/0"));
        expect("last_click", "prioritize_organic", Map.of("adB", "1/0"));
        expect("last_click", "only_organic", Map.of("adB", "1/0"));

        // deleted clicks: without k1 the latest paid click is k3; without any paid click, the organic one
        sql("DELETE FROM clicks WHERE account_id = {acc} AND id = 'k1'");
        expect("last_click", "prioritize_paid", Map.of("adC", "1/0"));
        sql("DELETE FROM clicks WHERE account_id = {acc} AND id = 'k3'");
        expect("last_click", "prioritize_paid", Map.of("adB", "1/0"));
        expect("last_click", "only_paid", Map.of());

        // a call, then moved to an earlier date (UPDATE of call_date, as PUT /calls does: the projection row is
        // deleted and re-inserted)
        click("k5", "L2", "2026-11-05 10:00:00", "adC", false);
        sql("INSERT INTO calls (account_id, id, name, lead_id, call_date, created_at, updated_at) VALUES ({acc}, 'c1', 'Call', 'L1', "
                + "'2026-11-06 10:00:00+00', now(), now())");
        expect("last_click", "prioritize_paid", Map.of("adA", "0/1", "adB", "1/0")); // k4 (paid) is before the call
        sql("UPDATE calls SET call_date = '2026-11-03 11:00:00+00' WHERE account_id = {acc} AND id = 'c1'");
        expect("last_click", "prioritize_paid", Map.of("adB", "1/1")); // only k2 (organic) is before it now

        // soft-deleted and deleted sales and calls leave the report
        sql(sale("s2", "L2", "2026-11-08 10:00:00"));
        expect("last_click", "prioritize_paid", Map.of("adB", "1/1", "adC", "1/0"));
        sql("UPDATE sales SET deleted = true WHERE account_id = {acc} AND id = 's1'");
        expect("last_click", "prioritize_paid", Map.of("adB", "0/1", "adC", "1/0"));
        sql("UPDATE sales SET deleted = false WHERE account_id = {acc} AND id = 's1'", "DELETE FROM calls WHERE account_id = {acc} AND id = 'c1'");
        expect("last_click", "prioritize_paid", Map.of("adB", "1/0", "adC", "1/0"));

        // a price change and a refund reach the amounts the reports sum (sale_credits copies them: V103's trigger on
        // the sales' amount columns); a refund does not lower revenue
        expect(this::revenue, Map.of("adB", "10.00", "adC", "10.00"), "revenue");
        sql("UPDATE sales SET price = 25, usd_price = 25, updated_at = now() WHERE account_id = {acc} AND id = 's2'");
        expect(this::revenue, Map.of("adB", "10.00", "adC", "25.00"), "revenue after a price change");
        sql("UPDATE sales SET refunded = true, refunded_amount = 25, refund_date = now() WHERE account_id = {acc} AND id = 's2'");
        expect(() -> {
            Response r = get(key, "/api/v1.0/attribution?attributionModel=last_click&startDate=2026-11-01&endDate=2026-11-18"
                    + "&level=facebook_ad&fields=refund&ids=" + enc("\"adC\""));
            assertEquals(200, r.status(), r.raw());
            Map<String, String> out = new TreeMap<>();
            r.body().get("result").forEach(row -> out.put(row.get("id").asText(), row.get("refund").decimalValue().setScale(2).toPlainString()));
            return out;
        }, Map.of("adC", "25.00"), "refund");
        expect(this::revenue, Map.of("adB", "10.00", "adC", "25.00"), "revenue after a refund");

        // one statement touching many leads (the per-account lock path): 1,200 leads with a click and a sale each
        sql("INSERT INTO leads (account_id, id, email, created_at, updated_at) SELECT {acc}, 'B' || g, 'b' || g || '@x.test', now(), now() "
                        + "FROM generate_series(1, 1200) g",
                "INSERT INTO clicks (account_id, id, lead_id, click_date, tracked_url, is_organic, integration_type, adspend_ad_id, created_at) "
                        + "SELECT {acc}, 'kb' || g, 'B' || g, '2026-11-09 10:00:00+00', 'https://x.test', false, 'FACEBOOK', 'adA', now() "
                        + "FROM generate_series(1, 1200) g");
        sql("INSERT INTO sales (account_id, id, order_id, lead_id, buyer_lead_id, product_name, position, quantity, unit_price, price, discount, "
                + "taxes, shipping, hard_cost, cost_of_goods, currency, usd_price, recurring, first_sale, sale_date, created_at, updated_at) "
                + "SELECT {acc}, 'sb' || g, 'ob' || g, 'B' || g, 'B' || g, 'P', 0, 1, 10, 10, 0, 0, 0, 0, 0, 'USD', 10, false, true, "
                + "'2026-11-10 10:00:00+00', now(), now() FROM generate_series(1, 1200) g");
        expect("last_click", "prioritize_paid", Map.of("adA", "1200/0", "adB", "1/0", "adC", "1/0"));

        // erasure of L2 (DELETE /leads): its sale goes, and ClickHouse keeps no projection row of it
        write(key, "DELETE", "/api/v1.0/leads?id=L2", null);
        expect("last_click", "prioritize_paid", Map.of("adA", "1200/0", "adB", "1/0"));
        erasure.erase(acc, "L2");
        assertEquals("0", TestStack.get().clickhouse("SELECT count() FROM " + TestStack.get().clickhouseDatabase()
                + ".conversion_touches WHERE account_id = '" + acc + "' AND lead_id = 'L2' FORMAT TabSeparated").trim());
        assertEquals("0", TestStack.get().clickhouse("SELECT count() FROM " + TestStack.get().clickhouseDatabase()
                + ".sale_credits WHERE account_id = '" + acc + "' AND lead_id = 'L2' FORMAT TabSeparated").trim());
    }
}
