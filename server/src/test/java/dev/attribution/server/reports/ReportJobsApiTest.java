package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.query.reports.ReportWorker;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;

import javax.sql.DataSource;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness of {@link ReportGenerationTest}: one UTC account with three FACEBOOK ads, their clicks, sales and spend
 * (written through the API as a partner writes them), this node's {@link ReportWorker} (tests stop it to play the
 * worker of other nodes by hand, and start it again), and a report's life: generate, poll, await it DONE, GET
 * /attribution's answer for the same parameters, and SQL on a job's {@code report_jobs} row.
 */
abstract class ReportJobsApiTest extends ApiTest {

    static final List<String> FIELDS = List.of("name", "sales", "one_time_sales", "unique_sales", "unique_customers", "customers",
            "returning_customers", "revenue", "recurring_revenue", "total_revenue", "unique_customers_revenue", "leads",
            "clicks", "cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer", "cost_per_lead", "aov");

    @Inject
    ReportWorker worker;

    @Inject
    DataSource dataSource;

    String key;

    /*
     * Ads ad1, ad2 (ad set set1, source "Set, one") and ad3 (set2, source "Set two"), campaign camp1, ad account acct.
     * lead1: click ad1 11-06 10:00, first sale 11-07 12:00 $100.50.
     * lead2: click ad2 11-07 10:00, click ad1 11-08 10:00, first sale 11-09 12:00 $20.00, rebill 11-12 12:00 $30.25.
     * lead3: organic click 11-09 10:00, click ad3 11-10 10:00, first sale 11-11 12:00 $99.99.
     * Spend: ad1 11-06 $10.00, ad2 11-07 $5.55, ad3 11-10 $7.77.
     * Written as an integration partner writes it (issue 20), no row inserted by hand: POST /sources, POST /clicks
     * (past dates, the source's tag, adspendAdId), POST /orders (the rebill an isRebill item), POST /ad-spend/import;
     * clicks and orders sent in bulk and awaited once, then one sentinel for ClickHouse. The API names no ad (the spend
     * file carries ids only): an ad's name is "", an ad set's is its source's.
     */
    @BeforeAll
    void data() {
        key = newUnthrottledAccount("UTC", Roles.ALL);
        Map<String, String> tags = new LinkedHashMap<>();
        for (String[] set : new String[][]{{"set1", "Set, one"}, {"set2", "Set two"}}) {
            JsonNode source = processed(key, "POST", "/api/v1.0/sources", "{\"name\":\"" + set[1] + "\",\"integrationType\":\"FACEBOOK\","
                    + "\"adSourceId\":\"" + set[0] + "\",\"accountId\":\"acct\",\"campaignId\":\"camp1\"}", "CREATE_SOURCE_LINK");
            tags.put(set[0], source.get("tag").asText());
        }
        String[][] clicks = {{"lead1", "2026-11-06", "set1", "ad1"}, {"lead2", "2026-11-07", "set1", "ad2"}, {"lead2", "2026-11-08", "set1", "ad1"},
                {"lead3", "2026-11-09", null, null}, {"lead3", "2026-11-10", "set2", "ad3"}};
        List<String> pending = new java.util.ArrayList<>();
        for (String[] c : clicks) {
            String paid = c[2] == null ? "\"isOrganic\":true" : "\"sourceLinkTag\":\"" + tags.get(c[2]) + "\",\"integrationType\":\"FACEBOOK\","
                    + "\"adSourceId\":\"" + c[2] + "\",\"adspendAdId\":\"" + c[3] + "\"";
            pending.add(sendWrite(key, "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.reports.test/\",\"email\":\"" + c[0]
                    + "@reports.test\",\"date\":\"" + c[1] + "T10:00:00Z\"," + paid + "}"));
        }
        awaitAllProcessed(key, pending);
        pending.clear();
        String[][] orders = {{"lead1", "s1", "2026-11-07", "100.50", "false"}, {"lead2", "s2", "2026-11-09", "20.00", "false"},
                {"lead2", "s3", "2026-11-12", "30.25", "true"}, {"lead3", "s4", "2026-11-11", "99.99", "false"}};
        for (String[] o : orders) {
            pending.add(sendWrite(key, "POST", "/api/v1.0/orders", "{\"email\":\"" + o[0] + "@reports.test\",\"orderId\":\"o" + o[1]
                    + "\",\"date\":\"" + o[2] + "T12:00:00Z\",\"items\":[{\"name\":\"Report item\",\"price\":" + o[3] + ",\"isRebill\":" + o[4] + "}]}"));
        }
        awaitAllProcessed(key, pending);
        Response spend = post(key, "/api/v1.0/ad-spend/import", """
                platform,ad_account_id,campaign_id,ad_set_id,ad_id,date,spend
                FACEBOOK,acct,camp1,set1,ad1,2026-11-06,10.00
                FACEBOOK,acct,camp1,set1,ad2,2026-11-07,5.55
                FACEBOOK,acct,camp1,set2,ad3,2026-11-10,7.77
                """);
        assertEquals(200, spend.status(), spend.raw());
        awaitCdcCaughtUp();
    }

    /** The parameters of one report, as GET /attribution's query and as a generate configuration. */
    static Map<String, Object> params(String model, String level, List<String> ids) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("attributionModel", model);
        p.put("startDate", "2026-11-05");
        p.put("endDate", "2026-11-18");
        p.put("level", level);
        p.put("fields", FIELDS);
        p.put("ids", ids);
        return p;
    }

    Response generate(Map<String, Object> configuration) {
        ObjectNode body = JsonBody.mapper().createObjectNode();
        body.set("configuration", JsonBody.mapper().valueToTree(configuration));
        return post(key, "/api/v1.0/reports/generate", body.toString());
    }

    Response attribution(Map<String, Object> p) {
        StringBuilder q = new StringBuilder();
        p.forEach((k, v) -> {
            String value = v instanceof List<?> l ? (k.equals("fields") ? String.join(",", (List<String>) l)
                    : String.join(",", l.stream().map(x -> "\"" + x + "\"").toList())) : String.valueOf(v);
            q.append(q.length() == 0 ? "" : "&").append(k).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        });
        return get(key, "/api/v1.0/attribution?" + q);
    }

    JsonNode poll(String id) {
        Response r = get(key, "/api/v1.0/reports/poll/" + id);
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result");
    }

    JsonNode awaitDone(String id) {
        return await(() -> {
            JsonNode job = poll(id);
            return job.get("status").asText().equals("DONE") ? job : null;
        });
    }

    String generated(Map<String, Object> configuration) {
        Response r = generate(configuration);
        assertEquals(200, r.status(), r.raw());
        assertTrue(r.body().has("request_id"), r.raw());
        return r.body().get("result").get("externalId").asText();
    }

    int sql(String statement, String id) {
        try (Connection c = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(statement)) {
            ps.setString(1, id);
            return ps.executeUpdate();
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
