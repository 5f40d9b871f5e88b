package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.query.sales.SaleReader;
import dev.attribution.views.SaleView;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sources of sales, calls, carts and subscriptions (their touches as of the conversion's date) are read after the
 * rows in one statement planned once per connection, as the leads' sources are (LeadRenderPlanTest): every POST
 * /orders result is rendered by the write workers through {@link SaleReader#byOrders}, and the sources' subqueries
 * were planned afresh with the sale rows on every call (docs/BENCHMARKS.md "The lead render's planning").
 */
@MicronautTest(transactional = false)
class ConversionRenderPlanTest extends PlatformTest {

    @Inject
    SaleReader sales;

    @Test
    void saleSourcesAsOfTheirDatesArePlannedOncePerConnectionWithTheSameAnswer() throws Exception {
        Acct a = account();
        for (String[] click : new String[][] {{"@plan-a", "2026-01-01T10:00:00Z"}, {"@plan-b", "2026-01-10T10:00:00Z"}}) {
            processed(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.test/\",\"email\":\"buyer@plan.test\","
                    + "\"sourceLinkTag\":\"" + click[0] + "\",\"date\":\"" + click[1] + "\"}", "CREATE_CLICK");
        }
        // before any touch, between the two, after both; and a lead without touches
        JsonNode before = processed(a.key(), "POST", "/api/v1.0/orders", order("buyer@plan.test", "o-before", "2025-12-01T12:00:00Z"), "CREATE_ORDER");
        JsonNode between = processed(a.key(), "POST", "/api/v1.0/orders", order("buyer@plan.test", "o-between", "2026-01-05T12:00:00Z"), "CREATE_ORDER");
        JsonNode after = processed(a.key(), "POST", "/api/v1.0/orders", order("buyer@plan.test", "o-after", "2026-02-01T12:00:00Z"), "CREATE_ORDER");
        JsonNode bare = processed(a.key(), "POST", "/api/v1.0/orders", order("bare@plan.test", "o-bare", "2026-02-01T12:00:00Z"), "CREATE_ORDER");
        assertTrue(before.get(0).path("firstSource").isMissingNode(), "no touch before the sale: " + before);
        assertEquals("@plan-a", between.get(0).path("firstSource").path("tag").asText(), between.toString());
        assertEquals("@plan-a", between.get(0).path("lastSource").path("tag").asText(), between.toString());
        assertEquals("@plan-a", after.get(0).path("firstSource").path("tag").asText(), after.toString());
        assertEquals("@plan-b", after.get(0).path("lastSource").path("tag").asText(), after.toString());
        assertTrue(bare.get(0).path("lastSource").isMissingNode(), bare.toString());
        // GET /sales reads them the same way: the same sales as the writes rendered them
        Response page = get(a.key(), "/api/v1.0/sales?fromDate=2025-11-01T00:00:00&toDate=2026-03-01T00:00:00");
        assertEquals(200, page.status(), page.raw());
        assertEquals(4, page.body().get("result").size(), page.raw());
        for (JsonNode written : List.of(before, between, after, bare)) {
            JsonNode listed = null;
            for (JsonNode s : page.body().get("result")) {
                if (s.get("id").equals(written.get(0).get("id"))) {
                    listed = s;
                }
            }
            assertNotNull(listed, written.toString());
            // the lead's lastUpdatedDate moves with the later writes of this test: compared as it was when written
            ((com.fasterxml.jackson.databind.node.ObjectNode) listed.get("lead")).set("lastUpdatedDate", written.get(0).get("lead").get("lastUpdatedDate"));
            // the same numbers (a write's result says 10 where GET /sales reads 10.00 back from the column)
            assertTrue(written.get(0).equals((x, y) -> x.isNumber() && y.isNumber() ? x.decimalValue().compareTo(y.decimalValue())
                    : x.equals(y) ? 0 : 1, listed), "GET /sales and the write's result agree: " + written.get(0) + " vs " + listed);
        }
        List<String> orderIds = List.of(after.get(0).get("orderId").asText(), "no-such-order", before.get(0).get("orderId").asText(),
                between.get(0).get("orderId").asText());
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection()) {
            c.setAutoCommit(false);
            try {
                for (int i = 0; i < 10; i++) {
                    Map<String, List<SaleView>> byOrder = sales.byOrders(c, a.id(), ZoneId.of("UTC"), orderIds);
                    assertEquals(List.of(), byOrder.get("no-such-order"));
                    SaleView late = byOrder.get(orderIds.get(0)).get(0);
                    assertEquals("@plan-a", late.firstSource().tag());
                    assertEquals("@plan-b", late.lastSource().tag());
                    assertNull(byOrder.get(orderIds.get(2)).get(0).firstSource(), "as of its date, the early sale has no touch");
                    assertEquals("@plan-a", byOrder.get(orderIds.get(3)).get(0).lastSource().tag());
                    assertEquals("buyer@plan.test", late.lead().get("email").asText(), "the lead is embedded");
                }
                List<Long> sources = plans(c, "%CROSS JOIN unnest($2::text[], $3::text[]) AS k(lead_id, at_text)%");
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

    private static String order(String email, String orderId, String date) {
        return "{\"email\":\"" + email + "\",\"orderId\":\"" + orderId + "\",\"date\":\"" + date + "\",\"items\":[{\"name\":\"Widget\",\"price\":10}]}";
    }
}
