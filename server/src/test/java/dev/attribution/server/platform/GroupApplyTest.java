package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.command.requests.WriteWorker;
import dev.attribution.testing.TestStack;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Issue 23 point 3, group apply: the writes of one claimed batch are applied by type, many at once, and still each
 * lead's writes in accept order and every write exactly once. The worker is stopped while the writes are accepted, so
 * they are pending together when it starts again; all writes of one ordering key (one lead) then go to one claim.
 */
@MicronautTest(transactional = false)
class GroupApplyTest extends PlatformTest {

    @Inject
    WriteWorker worker;

    @Test
    void aLeadsCreateAndUpdatesInOneClaimAreAppliedInOrderBesideOtherCreates() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        List<String> others = new ArrayList<>();
        List<String> ofLead = new ArrayList<>();
        worker.stop();
        try {
            for (int i = 0; i < 6; i++) {
                others.add(sendWrite(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"other-" + i + "@group.test\",\"firstName\":\"O" + i + "\"}"));
            }
            ofLead.add(sendWrite(a.key(), "POST", "/api/v1.0/leads",
                    "{\"email\":\"Ordered@group.test\",\"firstName\":\"One\",\"phoneNumbers\":[\"+15550001\"]}"));
            ofLead.add(sendWrite(a.key(), "PUT", "/api/v1.0/leads?email=ordered@group.test", "{\"firstName\":\"Two\",\"tags\":[\"t1\"]}"));
            ofLead.add(sendWrite(a.key(), "PUT", "/api/v1.0/leads?email=ordered@group.test", "{\"firstName\":\"Three\",\"phoneNumbers\":[\"+15550002\"]}"));
            ofLead.add(sendWrite(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"ordered@group.test\",\"lastName\":\"Four\"}"));
            others.add(sendWrite(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"other-last@group.test\"}"));
        } finally {
            worker.start();
        }
        List<JsonNode> results = awaitAllProcessed(a.key(), ofLead);
        assertEquals(1, scalar("SELECT count(DISTINCT xmin::text) FROM write_requests WHERE id = ANY(?)", ofLead),
                "one lead's pending writes are claimed together");
        // each result is the lead as it stood right after that write: the create's before any update of the batch
        assertEquals(List.of("One", "Two", "Three", "Three"), results.stream().map(r -> r.get("firstName").asText()).toList());
        assertEquals(List.of("[]", "[\"t1\"]", "[\"t1\"]", "[\"t1\"]"), results.stream().map(r -> r.get("tags").toString()).toList());
        assertEquals(List.of("[\"+15550001\"]", "[\"+15550001\"]", "[\"+15550001\",\"+15550002\"]", "[]"),
                results.stream().map(r -> sortedPhones(r)).toList(), "a create without phones deletes the stored ones (spec 4.1)");
        assertEquals("Four", results.get(3).get("lastName").asText());
        String id = results.get(0).get("id").asText();
        results.forEach(r -> assertEquals(id, r.get("id").asText(), "one lead"));
        List<JsonNode> created = awaitAllProcessed(a.key(), others);
        for (int i = 0; i < 6; i++) {
            assertEquals("other-" + i + "@group.test", created.get(i).get("email").asText());
            assertEquals("O" + i, created.get(i).get("firstName").asText());
        }
        assertEquals(8, scalar("SELECT count(*) FROM leads WHERE account_id = ANY(?)", List.of(a.id())));
    }

    @Test
    void manyCreatesOfSeveralAccountsInOneBatchAreAppliedOnceEach() throws Exception {
        List<Acct> accounts = List.of(account(), account(), account());
        int perAccount = 40;
        Acct first = accounts.get(0);
        for (Acct a : accounts) {
            directory.setRateOverride(a.id(), 100_000, 1_000_000);
        }
        // a lead that exists before: a create of its email updates it (names, phones replaced, consent kept)
        JsonNode before = processed(first.key(), "POST", "/api/v1.0/leads",
                "{\"email\":\"existing@group.test\",\"firstName\":\"Old\",\"phoneNumbers\":[\"+15559999\"],\"adOptimizationConsent\":\"DENIED\"}",
                "CREATE_LEAD");
        List<List<String>> requests = new ArrayList<>();
        String again;
        worker.stop();
        try {
            for (int i = 0; i < perAccount; i++) {
                for (Acct a : accounts) {
                    if (requests.size() < accounts.size()) {
                        requests.add(new ArrayList<>());
                    }
                    String phones = i % 2 == 0 ? "" : ",\"phoneNumbers\":[\"" + phone(i) + "\"]";
                    requests.get(accounts.indexOf(a)).add(sendWrite(a.key(), "POST", "/api/v1.0/leads",
                            "{\"email\":\"many-" + i + "@group.test\",\"firstName\":\"M" + i + "\"" + phones + "}"));
                }
            }
            again = sendWrite(first.key(), "POST", "/api/v1.0/leads", "{\"email\":\"EXISTING@group.test\",\"firstName\":\"New\"}");
        } finally {
            worker.start();
        }
        for (int k = 0; k < accounts.size(); k++) {
            List<JsonNode> results = awaitAllProcessed(accounts.get(k).key(), requests.get(k));
            for (int i = 0; i < perAccount; i++) {
                assertEquals("many-" + i + "@group.test", results.get(i).get("email").asText());
                assertEquals(i % 2 == 0 ? "[]" : "[\"" + phone(i) + "\"]", results.get(i).get("phoneNumbers").toString());
            }
        }
        JsonNode updated = awaitAllProcessed(first.key(), List.of(again)).get(0);
        assertEquals(before.get("id").asText(), updated.get("id").asText(), "the existing lead, not a new one");
        assertEquals("New", updated.get("firstName").asText());
        assertEquals("[]", updated.get("phoneNumbers").toString(), "a create without phones deletes the stored ones");
        assertEquals("DENIED", updated.get("adOptimizationConsent").asText(), "consent kept when none is sent");

        List<String> ids = accounts.stream().map(Acct::id).toList();
        assertEquals(3 * perAccount + 1, scalar("SELECT count(*) FROM leads WHERE account_id = ANY(?)", ids));
        assertEquals(3 * perAccount + 1, scalar("SELECT count(DISTINCT (account_id, lower(email))) FROM leads WHERE account_id = ANY(?)", ids));
        assertEquals(3 * perAccount / 2, scalar("SELECT count(*) FROM lead_phones WHERE account_id = ANY(?)", ids));
        assertEquals(3 * perAccount + 2, scalar("SELECT count(*) FROM write_requests WHERE account_id = ANY(?) AND status = 'PROCESSED'", ids),
                "every create applied (the 120, the one before and the one again), none failed");
        awaitCdcCaughtUp();
        String in = "('" + String.join("','", ids) + "')";
        String db = TestStack.get().clickhouseDatabase();
        assertEquals(3 * perAccount + 1, clickhouse("SELECT count() FROM " + db + ".leads_current WHERE account_id IN " + in));
        assertEquals(3 * perAccount + 1, clickhouse("SELECT uniqExact(account_id, email) FROM " + db + ".leads_current WHERE account_id IN " + in));
    }

    @Test
    void clicksOfManyLeadsInOneBatchAreAppliedOnceEachWithTheirLeads() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        JsonNode known = processed(a.key(), "POST", "/api/v1.0/leads", "{\"email\":\"known-clicker@group.test\",\"firstName\":\"Known\"}",
                "CREATE_LEAD");
        List<String> requests = new ArrayList<>();
        worker.stop();
        try {
            for (int i = 0; i < 12; i++) {
                String email = i == 0 ? "known-clicker@group.test" : "clicker-" + i + "@group.test";
                requests.add(sendWrite(a.key(), "POST", "/api/v1.0/clicks", "{\"referrerUrl\":\"https://shop.group.test/?utm_source=g" + i
                        + "\",\"email\":\"" + email + "\",\"ip\":\"10.9.0." + i + "\"}"));
            }
        } finally {
            worker.start();
        }
        List<JsonNode> clicks = awaitAllProcessed(a.key(), requests);
        assertEquals(known.get("id").asText(), clicks.get(0).get("leadId").asText(), "a click of a known email joins its lead");
        for (int i = 0; i < 12; i++) {
            JsonNode click = clicks.get(i);
            assertEquals(i == 0 ? "known-clicker@group.test" : "clicker-" + i + "@group.test", click.get("email").asText());
            assertEquals("g" + i, click.get("parsedParameters").get("utm_source").asText());
            JsonNode lead = get(a.key(), "/api/v1.0/leads?emails=" + list(click.get("email").asText())).body().get("result").get(0);
            assertEquals(click.get("leadId").asText(), lead.get("id").asText());
            assertEquals("[\"10.9.0." + i + "\"]", lead.get("ips").toString());
        }
        for (int i = 0; i < 12; i++) {
            // the group's results are read for the whole group at once: each is still the click exactly as GET renders it
            JsonNode listed = get(a.key(), "/api/v1.0/leads/clicks?emails=" + list(clicks.get(i).get("email").asText())).body().get("result");
            assertEquals(1, listed.size());
            assertEquals(jsonb(listed.get(0)), jsonb(clicks.get(i)), "click " + i + ": the result is the click as GET renders it");
        }
        assertEquals("Known", get(a.key(), "/api/v1.0/leads?emails=" + list("known-clicker@group.test")).body().get("result").get(0)
                .get("firstName").asText(), "a click keeps the lead's names");
        assertEquals(12, scalar("SELECT count(*) FROM leads WHERE account_id = ANY(?)", List.of(a.id())));
        assertEquals(12, scalar("SELECT count(DISTINCT lead_id) FROM clicks WHERE account_id = ANY(?)", List.of(a.id())));
        assertEquals(12, scalar("SELECT count(*) FROM clicks WHERE account_id = ANY(?)", List.of(a.id())));
        awaitCdcCaughtUp();
        String db = TestStack.get().clickhouseDatabase();
        assertEquals(12, clickhouse("SELECT uniqExact(id) FROM " + db + ".clicks WHERE account_id = '" + a.id() + "'"));
    }

    /**
     * Orders of several buyers in one claim are placed as a group (set-based); a second order of a buyer already in the
     * group, a retry of a placed order and an order of a known lead beside them. Each is placed once, with the result,
     * purchase flags and events it gets when applied alone.
     */
    @Test
    void ordersOfManyBuyersInOneBatchArePlacedOnceEach() throws Exception {
        Acct a = account();
        directory.setRateOverride(a.id(), 100_000, 1_000_000);
        String before = "{\"orderId\":\"placed-before\",\"email\":\"known-buyer@group.test\",\"firstName\":\"Known\","
                + "\"items\":[{\"name\":\"Group Widget\",\"price\":10}]}";
        JsonNode placed = processed(a.key(), "POST", "/api/v1.0/orders", before, "CREATE_ORDER");
        List<String> requests = new ArrayList<>();
        worker.stop();
        try {
            for (int i = 0; i < 8; i++) {
                String second = i % 2 == 0 ? ",{\"name\":\"Fresh Gadget\",\"price\":2.5,\"quantity\":2}" : "";
                requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders", "{\"orderId\":\"g-order-" + i + "\",\"email\":\"buyer-" + i
                        + "@group.test\",\"firstName\":\"B" + i + "\",\"items\":[{\"name\":\"Group Widget\",\"price\":10}" + second + "]}"));
            }
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders",
                    "{\"orderId\":\"g-second\",\"email\":\"Buyer-1@group.test\",\"items\":[{\"name\":\"Group Widget\",\"price\":7}]}"));
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders", before));
            requests.add(sendWrite(a.key(), "POST", "/api/v1.0/orders",
                    "{\"orderId\":\"g-known\",\"email\":\"known-buyer@group.test\",\"items\":[{\"name\":\"Group Widget\",\"price\":3}]}"));
        } finally {
            worker.start();
        }
        List<JsonNode> results = awaitAllProcessed(a.key(), requests);
        for (int i = 0; i < 8; i++) {
            JsonNode sales = results.get(i);
            assertEquals(i % 2 == 0 ? 2 : 1, sales.size(), "one sale per item");
            assertEquals("g-order-" + i, sales.get(0).get("orderId").asText());
            assertEquals("buyer-" + i + "@group.test", sales.get(0).get("lead").get("email").asText());
            assertEquals("B" + i, sales.get(0).get("lead").get("firstName").asText());
            assertEquals("Group Widget", sales.get(0).get("product").get("name").asText());
        }
        for (int i = 0; i < 8; i += 2) {
            // the group's orders are read in one go per account: each result is still its sales exactly as GET renders
            // them (buyers of even orders are written by no later write of the test)
            for (JsonNode sale : results.get(i)) {
                JsonNode listed = get(a.key(), "/api/v1.0/sales?ids=" + list(sale.get("id").asText())).body().get("result");
                assertEquals(1, listed.size());
                assertEquals(jsonb(listed.get(0)), jsonb(sale), "order " + i + ": the result is its sales as GET /sales renders them");
            }
        }
        assertEquals(results.get(1).get(0).get("lead").get("id"), results.get(8).get(0).get("lead").get("id"), "the same buyer");
        assertEquals("B1", results.get(8).get(0).get("lead").get("firstName").asText());
        assertEquals(placed.toString(), results.get(9).toString(), "an order placed again is a no-op");
        assertEquals(placed.get(0).get("lead").get("id"), results.get(10).get(0).get("lead").get("id"), "a known buyer");

        List<String> acc = List.of(a.id());
        assertEquals(1 + 8 + 4 + 1 + 1, scalar("SELECT count(*) FROM sales WHERE account_id = ANY(?)", acc));
        assertEquals(1 + 8 + 1 + 1, scalar("SELECT count(*) FROM orders WHERE account_id = ANY(?)", acc));
        assertEquals(1 + 8 + 4 + 1 + 1, scalar("SELECT count(*) FROM domain_events WHERE account_id = ANY(?) AND event_type = 'sale.attributed'", acc),
                "one event per sale placed, none for the order placed again");
        assertEquals(1, scalar("SELECT count(*) FROM products WHERE account_id = ANY(?) AND name = 'Fresh Gadget'", acc));
        assertEquals(9, scalar("SELECT count(*) FROM leads WHERE account_id = ANY(?)", acc));
        // purchase flags: the first order of a buyer holds first_sale, its latest holds last_purchase
        assertEquals("g-known:f:t,g-order-1:t:f,g-second:f:t,placed-before:t:f", text("""
                SELECT string_agg(order_id || ':' || CASE WHEN first_sale THEN 't' ELSE 'f' END || ':'
                       || CASE WHEN last_purchase THEN 't' ELSE 'f' END, ',' ORDER BY order_id)
                FROM sales WHERE account_id = ANY(?) AND order_id IN ('placed-before', 'g-known', 'g-order-1', 'g-second')""", acc));
        assertEquals(0, scalar("SELECT count(*) FROM sales WHERE account_id = ANY(?) AND order_id LIKE 'g-order-%' "
                + "AND order_id <> 'g-order-1' AND NOT (first_sale AND last_purchase)", acc), "a buyer's only order holds both flags");
        assertEquals(12, scalar("SELECT count(*) FROM write_requests WHERE account_id = ANY(?) AND status = 'PROCESSED'", acc),
                "every order applied once, none failed");
    }

    private String text(String sql, List<String> values) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setArray(1, c.createArrayOf("text", values.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** {@code json} as PostgreSQL stores it: a result is kept as jsonb (its keys and numbers normalised) and read back so. */
    private String jsonb(JsonNode json) throws Exception {
        try (Connection c = DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT ?::jsonb::text")) {
            ps.setString(1, json.toString());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    private static String phone(int i) {
        return String.format("+155501%04d", i);
    }

    private static String sortedPhones(JsonNode lead) {
        List<String> phones = new ArrayList<>();
        lead.get("phoneNumbers").forEach(p -> phones.add(p.asText()));
        phones.sort(null);
        return phones.stream().map(p -> "\"" + p + "\"").toList().toString().replace(", ", ",");
    }

    private long scalar(String sql, List<String> values) throws Exception {
        return Long.parseLong(text(sql, values));
    }

    private static long clickhouse(String sql) {
        return Long.parseLong(TestStack.get().clickhouse(sql).trim());
    }
}
