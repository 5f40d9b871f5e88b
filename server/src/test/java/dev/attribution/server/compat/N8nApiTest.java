package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.server.compat.N8nClient.Answer;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base of the tests of every request the npm package {@code n8n-nodes-hyros} 3.0.0 can send, replayed as it sends it
 * ({@link N8nClient}: raw query strings, blank strings for optional fields left empty, {@code pageSize=250} paging, the
 * {@code Accessible-Account-Id} header), and the fields it reads from the answers. Writes are followed to
 * {@code PROCESSED} through {@code GET /requests/{id}} (itself a client operation) and read back. The table of these
 * requests is docs/clients.md. One subclass per group of the node's resources: {@link N8nLeadsTest},
 * {@link N8nCommerceTest}, {@link N8nMarketingTest}, {@link N8nReportsAndSurfacesTest}, {@link N8nOwnSourceReportsTest}.
 */
abstract class N8nApiTest extends ApiTest {

    /** The demo account's last day: its reports and lists have data, nothing is in the future. */
    static final String END = "2026-10-31";

    /** A client on an account of its own (every role, generous limits). */
    N8nClient n8n;
    String accountId;
    /** A client on the demo-seeded account: hundreds of leads, sales, clicks, ads, ad accounts. */
    N8nClient demo;
    JsonNode seeded;

    @BeforeAll
    void setUp() throws Exception {
        accountId = account();
        n8n = new N8nClient(server.getURL().toString(), key(accountId), null);
        TestStack.get().properties().forEach(System::setProperty); // the admin command builds its own context
        if (usesDemo()) {
            seeded = admin("demo", "seed", "--leads", "300", "--months", "2", "--seed", "11", "--end-date", END);
            directory.setRateOverride(seeded.get("accountId").asText(), 100_000, 1_000_000);
            demo = new N8nClient(server.getURL().toString(), seeded.get("apiKey").asText(), null);
            awaitSeedInClickHouse();
        }
    }

    /**
     * The reports read ClickHouse, which CDC fills shortly after the seed's one transaction: waits until every seeded
     * lead and sale is there (the seed writes its ad hierarchy first, so the ads arrived before them). Without it a
     * report test that ran first answered 400 "Id not found at level ad" for a seeded ad.
     */
    private void awaitSeedInClickHouse() {
        for (String[] type : new String[][]{{"LEAD", "leads"}, {"SALE", "sales"}}) {
            int expected = seeded.get(type[1]).asInt();
            await(() -> demo.all("/conversion-paths", q("conversionType", type[0], "fromDate", "2026-09-01", "toDate", END))
                    .size() == expected ? true : null);
        }
    }

    /** Whether the class's tests read the demo-seeded account ({@link #demo}, {@link #seeded}); seeding it takes seconds. */
    boolean usesDemo() {
        return true;
    }

    @AfterAll
    void clear() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new java.util.HashMap<>(super.getProperties());
        p.put("attribution.webhooks.allow-loopback", "true"); // as in every webhook test
        return p;
    }

    String account() {
        String id = RequestIds.next("acc_");
        directory.createAccount(id, "n8n " + id, null, ZoneId.of("America/New_York"), "USD");
        directory.setRateOverride(id, 100_000, 1_000_000);
        return id;
    }

    String key(String account) {
        String key = ApiKeys.newKey();
        directory.createKey(account, ApiKeys.hash(key), Roles.ALL, false);
        return key;
    }

    /** A query object in the order the node fills it. */
    static Map<String, Object> q(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static void ok(Answer a) {
        assertEquals(200, a.status(), a.toString());
    }

    /** A write the client sends: 200, {@code {request_id, result:'OK'}}; then polled to PROCESSED; returns the status. */
    JsonNode applied(N8nClient client, Answer a, String eventType) {
        ok(a);
        assertEquals("OK", a.body().get("result").asText(), a.toString());
        String requestId = a.body().get("request_id").asText();
        JsonNode status = await(() -> {
            Answer s = client.get("/requests/" + requestId, null); // the node's Request Status operation
            assertEquals(200, s.status(), s.toString());
            JsonNode r = s.result();
            return "PENDING".equals(r.path("status").asText()) ? null : r;
        });
        assertEquals("PROCESSED", status.path("status").asText(), a + " => " + status);
        assertEquals(eventType, status.path("eventType").asText());
        return status;
    }

    /** A write of any event type (deletes): accepted, then PROCESSED. */
    JsonNode processed(N8nClient client, Answer a) {
        ok(a);
        String requestId = a.body().get("request_id").asText();
        JsonNode status = await(() -> {
            JsonNode r = client.get("/requests/" + requestId, null).result();
            return "PENDING".equals(r.path("status").asText()) ? null : r;
        });
        assertEquals("PROCESSED", status.path("status").asText(), a + " => " + status);
        return status;
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    // ---------------------------------------------------------------- demo seeding

    private static synchronized JsonNode admin(String... args) throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            exit = AdminCli.run(args);
        } finally {
            System.setOut(out);
        }
        String printed = o.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, printed);
        return JsonBody.mapper().readTree(printed.lines().filter(l -> l.startsWith("{")).reduce((a, b) -> b).orElseThrow());
    }
}
