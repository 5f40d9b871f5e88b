package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.leads.LeadReader;
import dev.attribution.views.LeadView;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The lead render by ids (every POST /leads result, rendered by the write workers; GET /leads by ids): the lead rows
 * are planned for their arguments on every call (a plan kept over stale statistics once scanned a whole account), and
 * their sources, whose plan cannot depend on the arguments, once per connection (docs/BENCHMARKS.md "The lead
 * render's planning"). The setting that keeps the second plan ends with its statement.
 */
@MicronautTest(transactional = false)
class LeadRenderPlanTest extends PlatformTest {

    @Inject
    LeadReader reader;

    @Test
    void leadRowsArePlannedPerCallTheirSourcesOncePerConnectionWithTheSameAnswer() throws Exception {
        Acct a = account();
        List<String> ids = new ArrayList<>();
        List<JsonNode> written = new ArrayList<>();
        for (String body : List.of("{\"email\":\"one@plan.test\",\"tags\":[\"@facebook\",\"!webinar\"]}",
                "{\"email\":\"two@plan.test\"}", "{\"email\":\"three@plan.test\",\"tags\":[\"@google\"]}")) {
            JsonNode lead = processed(a.key(), "POST", "/api/v1.0/leads", body, "CREATE_LEAD");
            ids.add(lead.get("id").asText());
            written.add(lead);
        }
        assertEquals("facebook", written.get(0).path("firstSource").path("name").asText(), written.get(0).toString());
        // a page of GET /leads reads its sources the same way: the same leads as the writes rendered them
        Response page = get(a.key(), "/api/v1.0/leads?emails=%22one@plan.test%22,%22two@plan.test%22,%22three@plan.test%22");
        assertEquals(200, page.status(), page.raw());
        for (JsonNode lead : written) {
            JsonNode listed = null;
            for (JsonNode l : page.body().get("result")) {
                if (l.get("id").equals(lead.get("id"))) {
                    listed = l;
                }
            }
            assertEquals(lead, listed, "GET /leads and the write's result agree");
        }
        List<String> asked = List.of(ids.get(2), "lead_unknown", ids.get(0), ids.get(1));
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection()) {
            c.setAutoCommit(false);
            try {
                for (int i = 0; i < 10; i++) {
                    List<LeadView> leads = reader.byIds(c, a.id(), ZoneId.of("UTC"), asked);
                    assertEquals(List.of("three@plan.test", "one@plan.test", "two@plan.test"), leads.stream().map(LeadView::email).toList(),
                            "the leads of the ids that exist, in their order");
                    assertEquals("google", leads.get(0).firstSource().name());
                    assertEquals("facebook", leads.get(1).firstSource().name());
                    assertEquals("facebook", leads.get(1).lastSource().name());
                    assertNull(leads.get(2).firstSource(), "a lead without a touch has no source");
                }
                List<Long> rows = plans(c, "%CROSS JOIN LATERAL (SELECT * FROM leads WHERE account_id = $2 AND id = k.id%");
                assertEquals(0L, rows.get(0), "the lead rows: never a kept plan");
                assertTrue(rows.get(1) > 0, "the lead rows: a custom plan on every call, once prepared too");
                List<Long> sources = plans(c, "%FROM (SELECT $1::text AS account_id) req CROSS JOIN unnest($2::text[])%");
                assertTrue(sources.get(0) > 0, "the sources: the kept plan ran");
                assertEquals(0L, sources.get(1), "the sources: never planned afresh once prepared");
                try (PreparedStatement ps = c.prepareStatement("SELECT current_setting('plan_cache_mode')");
                     ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    assertEquals("auto", rs.getString(1), "the rest of the transaction plans as before");
                }
            } finally {
                c.rollback();
            }
        }
    }

    /** Generic and custom plans made for this connection's prepared statements like {@code pattern}. */
    private static List<Long> plans(Connection c, String pattern) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) FROM pg_prepared_statements WHERE statement LIKE ?")) {
            ps.setString(1, pattern);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return List.of(rs.getLong(1), rs.getLong(2));
            }
        }
    }
}
