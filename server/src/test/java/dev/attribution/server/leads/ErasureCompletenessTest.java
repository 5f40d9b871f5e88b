package dev.attribution.server.leads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Spec 3.2 "personal data redacted" (issue 29): a lead written through every write path that carries personal data
 * is erased with DELETE /leads; then no PostgreSQL table holds its email, names, phone or IP in any row (the request
 * log and the outbox included), and GET /requests/{id} of its earlier writes shows none of them. ClickHouse's copies
 * are ErasureTest's (cdc). What stays: the hashed blacklist (no value in clear) and the erased lead's row.
 */
@MicronautTest(transactional = false)
class ErasureCompletenessTest extends ApiTest {

    static final String EMAIL = "zelda.erase-me@example.com";
    static final String[] VALUES = {EMAIL, "Quartermaine", "Zeldabeth", "203.0.113.77", "555 010 7788", "5550107788"};

    @Inject
    DataSource dataSource;

    @Test
    void noCopyOfAnErasedLeadsPersonalDataIsLeft() throws Exception {
        String key = newAccount();
        String other = "keep.me@example.com";
        List<String> writes = new ArrayList<>();
        writes.add(accepted(key, "POST", "/api/v1.0/leads", """
                {"email":"%s","firstName":"Zeldabeth","lastName":"Quartermaine","phoneNumbers":["+1 555 010 7788"],
                 "leadIps":["203.0.113.77"],"tags":["!vip","$course"]}""".formatted(EMAIL)));
        writes.add(accepted(key, "POST", "/api/v1.0/clicks", """
                {"referrerUrl":"https://shop.example/?x=1","email":"%s","ip":"203.0.113.77","integrationType":"FACEBOOK",
                 "adSourceId":"as_1","adspendAdId":"ad_1"}""".formatted(EMAIL)));
        writes.add(accepted(key, "POST", "/api/v1.0/orders", """
                {"email":"%s","firstName":"Zeldabeth","phoneNumbers":["+1 555 010 7788"],"items":[{"name":"Course","price":90}]}"""
                .formatted(EMAIL)));
        writes.add(accepted(key, "POST", "/api/v1.0/calls", """
                {"email":"%s","name":"Intro call","phoneNumbers":["+1 555 010 7788"]}""".formatted(EMAIL)));
        writes.add(accepted(key, "PUT", "/api/v1.0/leads?email=" + enc(EMAIL), """
                {"lastName":"Quartermaine","tags":["!returning"]}"""));
        String kept = accepted(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + other + "\",\"firstName\":\"Keepsake\"}");
        for (String id : writes) {
            assertEquals("PROCESSED", awaitRequest(key, id).get("status").asText(), id);
        }
        awaitRequest(key, kept);
        assertTrue(get(key, "/api/v1.0/requests/" + writes.get(0)).raw().contains(EMAIL), "the log held it before");

        String erase = accepted(key, "DELETE", "/api/v1.0/leads?email=" + enc(EMAIL), null);
        assertEquals("PROCESSED", awaitRequest(key, erase).get("status").asText());

        for (String id : writes) {
            Response status = get(key, "/api/v1.0/requests/" + id);
            assertEquals(200, status.status(), status.raw());
            assertEquals("PROCESSED", status.body().get("result").get("status").asText(), "still pollable: " + status.raw());
            for (String v : VALUES) {
                assertFalse(status.raw().contains(v), v + " in GET /requests/" + id + ": " + status.raw());
            }
        }
        assertFalse(get(key, "/api/v1.0/requests/" + erase).raw().contains(EMAIL), "the erasing request's own payload");
        assertTrue(get(key, "/api/v1.0/requests/" + kept).raw().contains(other), "another lead's writes are untouched");

        Map<String, Long> hits = new java.util.TreeMap<>();
        try (Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rs = s.executeQuery("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            assertTrue(tables.contains("write_requests") && tables.contains("domain_events"), tables.toString());
            for (String table : tables) {
                for (String v : VALUES) {
                    try (ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table + " AS t WHERE t::text ILIKE '%" + v + "%'")) {
                        rs.next();
                        if (rs.getLong(1) > 0) {
                            hits.merge(table + ":" + v, rs.getLong(1), Long::sum);
                        }
                    }
                }
            }
        }
        assertEquals(Map.of(), hits, "rows still holding the erased lead's values");
    }

    private String accepted(String key, String method, String path, String json) {
        Response r = send(key, method, path, json);
        assertEquals(200, r.status(), method + " " + path + " " + r.raw());
        JsonNode id = r.body().get("request_id");
        return id.asText();
    }
}
