package dev.attribution.server.glue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The hooks between leads and commerce (spec 3.2): $ tags make sales, erasure reaches commerce, blacklist, origin. */
@MicronautTest(transactional = false)
class GlueTest extends ApiTest {

    static final String BLACKLISTED =
            "The event was discarded because an email or phone number it carries is blacklisted for this account.";

    String key;

    @BeforeAll
    void data() {
        key = newAccount();
        JsonNode product = write(key, "POST", "/api/v1.0/products", "{\"name\":\"Glue Course\",\"price\":49.5}").get("result");
        assertEquals("$glue-course", product.get("tag").asText());
    }

    static String one(String sql) {
        try (Connection c = TestStack.get().connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new AssertionError(sql, e);
        }
    }

    private JsonNode sales(String leadId) {
        return get(key, "/api/v1.0/sales?leadIds=" + list(leadId)).body().get("result");
    }

    @Test
    void aProductTagOnALeadMakesOneBackdatedSale() {
        JsonNode s = write(key, "POST", "/api/v1.0/leads",
                "{\"email\":\"tagger@glue.com\",\"tags\":[\"$glue-course\",\"!other\"],\"tagsDate\":\"2026-02-02T15:00:00Z\"}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        String id = s.get("result").get("id").asText();
        JsonNode sales = sales(id);
        assertEquals(1, sales.size(), sales.toString());
        assertEquals("$glue-course", sales.get(0).get("product").get("tag").asText());
        assertEquals("Mon Feb 02 10:00:00 EST 2026", sales.get(0).get("creationDate").asText());
        // the lead already holds the tag: no second sale
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"tagger@glue.com\",\"tags\":[\"$glue-course\"]}");
        write(key, "POST", "/api/v1.0/leads/tags", "{\"emails\":[\"tagger@glue.com\"],\"tags\":[\"$glue-course\"]}");
        assertEquals(1, sales(id).size());
    }

    @Test
    void bulkTaggingMakesTheSaleToo() {
        String id = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"bulk@glue.com\"}").get("result").get("id").asText();
        assertEquals(0, sales(id).size());
        JsonNode s = write(key, "POST", "/api/v1.0/leads/tags", "{\"emails\":[\"bulk@glue.com\"],\"tags\":[\"$glue-course\"]}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        assertEquals(1, sales(id).size());
    }

    @Test
    void anOrderWithParentEmailAssignsTheOriginLead() {
        JsonNode s = write(key, "POST", "/api/v1.0/orders",
                "{\"email\":\"child@glue.com\",\"parentEmail\":\"parent@glue.com\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}");
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());
        String origin = one("SELECT o.email FROM leads l JOIN leads o ON o.account_id = l.account_id AND o.id = l.origin_lead_id "
                + "WHERE l.email = 'child@glue.com'");
        assertEquals("parent@glue.com", origin);
        assertEquals("1", one("SELECT count(*) FROM domain_events e JOIN leads l ON l.id = e.subject_id "
                + "WHERE e.event_type = 'lead.origin.assigned' AND l.email = 'child@glue.com'"));
    }

    @Test
    void erasingABuyerRecomputesTheFirstSaleOfTheOriginLeadItWasCreditedTo() {
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/orders", "{\"email\":\"kid@glue.com\",\"parentEmail\":\"mum@glue.com\","
                + "\"orderId\":\"glue-first\",\"date\":\"2026-01-01T00:00:00Z\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}").get("status").asText());
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/orders", "{\"email\":\"mum@glue.com\","
                + "\"orderId\":\"glue-second\",\"date\":\"2026-02-01T00:00:00Z\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}").get("status").asText());
        String flags = "SELECT string_agg(order_id || '=' || first_sale, ',' ORDER BY order_id) FROM sales s JOIN leads l ON l.id = s.lead_id "
                + "WHERE l.email = 'mum@glue.com' AND NOT s.deleted";
        assertEquals("glue-first=true,glue-second=false", one(flags), "the child's order made the origin lead a customer");
        assertEquals("PROCESSED", write(key, "DELETE", "/api/v1.0/leads?email=kid@glue.com", null).get("status").asText());
        assertEquals("glue-second=true", one(flags), "without the erased buyer's sale the origin's own order is its first");
    }

    @Test
    void erasureDeletesSalesAndCallsCancelsSubscriptionsUnlinksCartsAndBlacklistsCommerceWrites() {
        String email = "erase@glue.com";
        String id = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\",\"phoneNumbers\":\"+15550001111\"}")
                .get("result").get("id").asText();
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/orders",
                "{\"email\":\"" + email + "\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}").get("status").asText());
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/calls", "{\"name\":\"Call\",\"email\":\"" + email + "\"}").get("status").asText());
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/subscriptions", "{\"email\":\"" + email
                + "\",\"status\":\"ACTIVE\",\"startDate\":\"2026-01-01\",\"price\":5,\"periodicity\":\"MONTH\"}").get("status").asText());
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/carts", "{\"cartId\":\"glue-cart\",\"email\":\"" + email
                + "\",\"items\":[{\"name\":\"Thing\",\"price\":1}]}").get("status").asText());
        assertEquals(1, sales(id).size());

        JsonNode s = write(key, "DELETE", "/api/v1.0/leads?email=" + email, null);
        assertEquals("PROCESSED", s.get("status").asText(), s.toString());

        String where = " WHERE lead_id = '" + id + "'";
        assertEquals("0", one("SELECT count(*) FROM sales" + where + " OR buyer_lead_id = '" + id + "'"));
        assertEquals("0", one("SELECT count(*) FROM calls" + where));
        assertEquals("CANCELED", one("SELECT string_agg(DISTINCT status, ',') FROM subscriptions" + where));
        assertEquals("0", one("SELECT count(*) FROM carts" + where));
        assertEquals("1", one("SELECT count(*) FROM carts WHERE id = 'glue-cart' AND lead_id IS NULL"));

        for (String[] w : new String[][]{
                {"/api/v1.0/orders", "{\"email\":\"ERASE@glue.com\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}"},
                {"/api/v1.0/orders", "{\"email\":\"fresh@glue.com\",\"parentEmail\":\"erase@glue.com\",\"items\":[{\"name\":\"Thing\",\"price\":10}]}"},
                {"/api/v1.0/calls", "{\"name\":\"Call\",\"email\":\"erase@glue.com\"}"},
                {"/api/v1.0/carts", "{\"phoneNumbers\":\"+1 555 000 1111\",\"items\":[{\"name\":\"Thing\",\"price\":1}]}"},
                {"/api/v1.0/subscriptions", "{\"email\":\"erase@glue.com\",\"status\":\"ACTIVE\",\"startDate\":\"2026-01-01\",\"price\":5,\"periodicity\":\"MONTH\"}"}}) {
            Response r = post(key, w[0], w[1]);
            assertEquals(400, r.status(), w[0] + " " + w[1]);
            assertEquals(BLACKLISTED, r.message(), w[0]);
            assertFalse(r.body().has("request_id"));
        }
        Response update = put(key, "/api/v1.0/carts", "{\"cartId\":\"glue-cart\",\"email\":\"erase@glue.com\",\"items\":[{\"name\":\"Thing\",\"price\":1}]}");
        assertEquals(BLACKLISTED, update.message());
    }
}
