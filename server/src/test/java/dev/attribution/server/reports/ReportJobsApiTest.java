package dev.attribution.server.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.clickhouse.ClickHouseGateway;
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
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The harness of {@link ReportGenerationTest}: one UTC account with three FACEBOOK ads, their clicks, sales and spend
 * (inserted straight into ClickHouse's streamed tables), this node's {@link ReportWorker} (tests stop it to play the
 * worker of other nodes by hand, and start it again), and a report's life: generate, poll, await it DONE, GET
 * /attribution's answer for the same parameters, and SQL on a job's {@code report_jobs} row.
 */
abstract class ReportJobsApiTest extends ApiTest {

    static final List<String> FIELDS = List.of("name", "sales", "one_time_sales", "unique_sales", "unique_customers", "customers",
            "returning_customers", "revenue", "recurring_revenue", "total_revenue", "unique_customers_revenue", "leads",
            "clicks", "cost", "profit", "roas", "cac", "cost_per_sale", "cost_per_unique_customer", "cost_per_lead", "aov");

    @Inject
    ClickHouseGateway clickHouse;

    @Inject
    ReportWorker worker;

    @Inject
    DataSource dataSource;

    String key;
    String accountId;

    @BeforeAll
    void data() {
        accountId = dev.attribution.api.RequestIds.next("acc_");
        directory.createAccount(accountId, "Reports " + accountId, null, ZoneOffset.UTC, "USD");
        key = dev.attribution.api.auth.ApiKeys.newKey();
        directory.createKey(accountId, dev.attribution.api.auth.ApiKeys.hash(key), Roles.ALL, false);
        StringBuilder ads = new StringBuilder();
        for (String[] a : new String[][]{{"ad1", "set1"}, {"ad2", "set1"}, {"ad3", "set2"}}) {
            ads.append(row("\"platform\":\"FACEBOOK\",\"ad_id\":\"" + a[0] + "\",\"ad_account_id\":\"acct\",\"campaign_id\":\"camp1\","
                    + "\"ad_set_id\":\"" + a[1] + "\",\"name\":\"Ad, " + a[0] + "\",\"created_at\":\"2026-10-01 00:00:00\""));
        }
        StringBuilder clicks = new StringBuilder()
                .append(click("c1", "lead1", "2026-11-06 10:00:00", false, "ad1"))
                .append(click("c2", "lead2", "2026-11-07 10:00:00", false, "ad2"))
                .append(click("c3", "lead2", "2026-11-08 10:00:00", false, "ad1"))
                .append(click("c4", "lead3", "2026-11-09 10:00:00", true, ""))
                .append(click("c5", "lead3", "2026-11-10 10:00:00", false, "ad3"));
        StringBuilder sales = new StringBuilder()
                .append(sale("s1", "lead1", "2026-11-07 12:00:00", "100.50", false, true))
                .append(sale("s2", "lead2", "2026-11-09 12:00:00", "20.00", false, true))
                .append(sale("s3", "lead2", "2026-11-12 12:00:00", "30.25", true, false))
                .append(sale("s4", "lead3", "2026-11-11 12:00:00", "99.99", false, true));
        StringBuilder spend = new StringBuilder()
                .append(spend("ad1", "set1", "2026-11-06", "10.00"))
                .append(spend("ad2", "set1", "2026-11-07", "5.55"))
                .append(spend("ad3", "set2", "2026-11-10", "7.77"));
        clickHouse.insertJsonEachRow("ads", bytes(ads));
        clickHouse.insertJsonEachRow("clicks", bytes(clicks));
        clickHouse.insertJsonEachRow("sales", bytes(sales));
        clickHouse.insertJsonEachRow("ad_spend_daily", bytes(spend));
        dev.attribution.server.support.ConversionTouchesDerivation.derive(clickHouse, accountId);
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

    private String row(String fields) {
        return "{\"account_id\":\"" + accountId + "\"," + fields + ",\"_version\":1,\"is_deleted\":0}\n";
    }

    private String click(String id, String lead, String at, boolean organic, String ad) {
        return row("\"id\":\"" + id + "\",\"lead_id\":\"" + lead + "\",\"click_date\":\"" + at + "\",\"is_organic\":" + (organic ? 1 : 0)
                + ",\"integration_type\":\"" + (ad.isEmpty() ? "" : "FACEBOOK") + "\",\"adspend_ad_id\":\"" + ad + "\",\"created_at\":\"" + at + "\"");
    }

    private String sale(String id, String lead, String at, String price, boolean recurring, boolean first) {
        return row("\"id\":\"" + id + "\",\"order_id\":\"o" + id + "\",\"lead_id\":\"" + lead + "\",\"quantity\":1,\"price\":" + price
                + ",\"currency\":\"USD\",\"recurring\":" + (recurring ? 1 : 0) + ",\"first_sale\":" + (first ? 1 : 0) + ",\"sale_date\":\""
                + at + "\",\"updated_at\":\"" + at + "\",\"deleted\":0");
    }

    private String spend(String ad, String set, String day, String amount) {
        return row("\"platform\":\"FACEBOOK\",\"ad_id\":\"" + ad + "\",\"day\":\"" + day + "\",\"ad_account_id\":\"acct\",\"campaign_id\":\"camp1\","
                + "\"ad_set_id\":\"" + set + "\",\"spend\":" + amount + ",\"currency\":\"USD\",\"updated_at\":\"2026-11-01 00:00:00\"");
    }

    private static byte[] bytes(StringBuilder s) {
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }
}
