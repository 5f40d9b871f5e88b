package dev.attribution.server.bi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.admin.BiAccess;
import dev.attribution.server.support.AdminRuns.Run;
import dev.attribution.server.support.ApiTest;
import dev.attribution.server.support.TwoEngines;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static dev.attribution.server.support.AdminRuns.admin;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24 point 4: {@code scripts/admin bi grant --account ID} on ClickHouse 18.16 makes a read-only user that sees
 * that account's rows only (its own database of copies fed by account), new writes reach it through the feed, the
 * documented example queries run as that user, and {@code bi revoke} removes it. On the current engine the statements
 * rendered for it (users, grants, row policies) parse ({@code formatQuery}); chdb-http has no access storage to run them.
 */
@MicronautTest(transactional = false)
class BiAccessTest extends ApiTest {

    private Path usersDir;

    @BeforeAll
    void point() {
        usersDir = TestStack.get().clickhouseUsersDir();
        Assumptions.assumeTrue(usersDir != null, "the users.d directory of the test ClickHouse is known only for the local stack");
        // the admin commands build their own context: point it at this JVM's servers
        TestStack.get().properties().forEach(System::setProperty);
    }

    @AfterAll
    void clear() {
        TestStack.get().properties().keySet().forEach(System::clearProperty);
    }

    /** A query over HTTP as {@code user}: {@code [status, body]}. */
    static String[] as(String user, String password, String sql) {
        try {
            HttpURLConnection c = (HttpURLConnection) URI.create(TestStack.get().clickhouseUrl() + "/?user=" + user + "&password="
                    + URLEncoder.encode(password, StandardCharsets.UTF_8)).toURL().openConnection();
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.getOutputStream().write(sql.getBytes(StandardCharsets.UTF_8));
            int status = c.getResponseCode();
            byte[] body = (status < 400 ? c.getInputStream() : c.getErrorStream()).readAllBytes();
            return new String[]{Integer.toString(status), new String(body, StandardCharsets.UTF_8).trim()};
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private String[] account(String name) {
        String key = newAccount("UTC", Roles.ALL);
        String id = directory.findActiveKey(ApiKeys.hash(key)).orElseThrow().account().id();
        for (int i = 0; i < 2; i++) {
            processed(key, "POST", "/api/v1.0/orders", "{\"orderId\":\"" + name + i + "\",\"email\":\"" + name + i + "@bi-access.test\","
                    + "\"date\":\"2026-11-0" + (i + 2) + "T10:00:00Z\",\"items\":[{\"name\":\"Plan " + name + "\",\"price\":1" + i + "}]}", "CREATE_ORDER");
        }
        return new String[]{key, id};
    }

    @Test
    void aGrantedUserSeesOnlyItsAccountAndRunsTheDocumentedQueries() throws Exception {
        String[] a = account("a");
        String[] b = account("b");
        awaitCdcCaughtUp();
        String db = TestStack.get().clickhouseDatabase();

        Run granted = admin("bi", "grant", "--account", a[1], "--password", "pw-a", "--users-dir", usersDir.toString());
        assertEquals(0, granted.exit(), granted.toString());
        JsonNode g = JsonBody.mapper().readTree(granted.lastJson());
        String user = g.get("user").asText();
        assertEquals("per-account copy", g.get("isolation").asText());
        assertEquals(user, g.get("database").asText());
        Run other = admin("bi", "grant", "--account", b[1], "--password", "pw-b", "--users-dir", usersDir.toString());
        assertEquals(0, other.exit(), other.toString());
        String otherUser = JsonBody.mapper().readTree(other.lastJson()).get("user").asText();
        try {
            // the server reloads users.d within seconds
            await(() -> "200".equals(as(user, "pw-a", "SELECT 1")[0]) ? true : null);
            assertEquals("2\t" + a[1], as(user, "pw-a", "SELECT count(), any(account_id) FROM " + user + ".sales_current")[1]);
            assertEquals("1", as(user, "pw-a", "SELECT uniqExact(account_id) FROM " + user + ".sales")[1]);
            String[] main = as(user, "pw-a", "SELECT count() FROM " + db + ".sales");
            assertEquals("500", main[0], main[1]);
            assertTrue(main[1].contains("Access denied to database " + db), main[1]);
            String[] neighbour = as(user, "pw-a", "SELECT count() FROM " + otherUser + ".sales");
            assertTrue(neighbour[1].contains("Access denied to database " + otherUser), neighbour[1]);
            String[] insert = as(user, "pw-a", "INSERT INTO " + user + ".sales (account_id) VALUES ('x')");
            assertEquals("500", insert[0], insert[1]);

            // every documented example query runs as the user on its database; the sales one answers its two sales (10 + 11)
            for (String example : SchemaDoc.read().examples()) {
                String[] r = as(user, "pw-a", example.replace("'acc_123'", "'" + a[1] + "'").replace("attribution.", user + ".") + " FORMAT TSV");
                assertEquals("200", r[0], example + "\n" + r[1]);
                if (example.contains("sale_product_name")) {
                    assertEquals("2026-11-01\tPlan a\t2\t21.00\t0\t0.00", r[1]);
                }
            }

            // a write after the grant reaches the user's copy through the feed; the other account's does not
            processed(a[0], "POST", "/api/v1.0/orders", "{\"orderId\":\"a9\",\"email\":\"a9@bi-access.test\",\"date\":\"2026-11-09T10:00:00Z\","
                    + "\"items\":[{\"name\":\"Plan a\",\"price\":19}]}", "CREATE_ORDER");
            processed(b[0], "POST", "/api/v1.0/orders", "{\"orderId\":\"b9\",\"email\":\"b9@bi-access.test\",\"date\":\"2026-11-09T10:00:00Z\","
                    + "\"items\":[{\"name\":\"Plan b\",\"price\":29}]}", "CREATE_ORDER");
            awaitCdcCaughtUp();
            assertEquals("3\t1", as(user, "pw-a", "SELECT count(), uniqExact(account_id) FROM " + user + ".sales_current")[1]);
        } finally {
            Run revoked = admin("bi", "revoke", "--account", a[1], "--users-dir", usersDir.toString());
            assertEquals(0, revoked.exit(), revoked.toString());
            assertEquals(0, admin("bi", "revoke", "--account", b[1], "--users-dir", usersDir.toString()).exit());
        }
        await(() -> !"200".equals(as(user, "pw-a", "SELECT 1")[0]) ? true : null);
        assertEquals("0", TestStack.get().clickhouse("SELECT count() FROM system.databases WHERE name = '" + user + "'").trim());
        // the feeds are gone: the main tables take writes of the account again without them
        processed(a[0], "POST", "/api/v1.0/leads", "{\"email\":\"after@bi-access.test\"}", "CREATE_LEAD");
        awaitCdcCaughtUp();
    }

    /**
     * Erasure (DELETE /leads) reaches the per-account copies too: before, an erased lead's old versions (email and all)
     * stayed in {@code bi_<account>} until revoke and grant, while the main tables lost them.
     */
    @Test
    void anErasedLeadsOldVersionsLeaveTheGrantedCopyToo() throws Exception {
        String[] a = account("e");
        String email = "erase-me@bi-access.test";
        String lead = write(a[0], "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\",\"firstName\":\"Eve\"}")
                .get("result").get("id").asText();
        awaitCdcCaughtUp();
        Run granted = admin("bi", "grant", "--account", a[1], "--password", "pw-e", "--users-dir", usersDir.toString());
        assertEquals(0, granted.exit(), granted.toString());
        String copy = JsonBody.mapper().readTree(granted.lastJson()).get("database").asText();
        try {
            String holding = "SELECT count() FROM " + copy + ".leads WHERE email = '" + email + "' OR first_name = 'Eve'";
            assertEquals("1", TestStack.get().clickhouse(holding).trim(), "the copy holds the lead before the erasure");
            assertEquals("PROCESSED", write(a[0], "DELETE", "/api/v1.0/leads?id=" + lead, null).get("status").asText());
            // the sweep records a lead once its erasure succeeded in every table it found
            await(() -> swept(lead) ? true : null);
            assertEquals("0", TestStack.get().clickhouse(holding).trim(), "the erased lead's old version is gone from the copy");
            assertEquals("1", TestStack.get().clickhouse("SELECT count() FROM " + copy + ".leads WHERE id = '" + lead + "'").trim(),
                    "the redacted version stays, as in the main tables");
            assertEquals("0", TestStack.get().clickhouse("SELECT count() FROM " + TestStack.get().clickhouseDatabase()
                    + ".leads WHERE email = '" + email + "'").trim());
        } finally {
            assertEquals(0, admin("bi", "revoke", "--account", a[1], "--users-dir", usersDir.toString()).exit());
        }
    }

    private static boolean swept(String lead) {
        try (java.sql.Connection c = TestStack.get().connect();
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM cdc_erasures WHERE lead_id = ?")) {
            ps.setString(1, lead);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1) == 1;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void theRowPolicyStatementsOfCurrentReleasesParseOnTheCurrentEngine() throws Exception {
        assertTrue(BiAccess.rowPolicies("26.7.2.1"));
        assertTrue(BiAccess.rowPolicies("20.4.1"));
        assertTrue(!BiAccess.rowPolicies("18.16.1"));
        assertTrue(!BiAccess.rowPolicies("20.3.9"));
        List<String> statements = new java.util.ArrayList<>(BiAccess.rowPolicyGrant("attribution", "acc_x1", "p'w", List.of("bi_acc_x0", "bi_acc_x1")));
        statements.addAll(BiAccess.rowPolicyRevoke("attribution", "acc_x1", List.of("bi_acc_x0")));
        statements.addAll(BiAccess.rowPolicyRevoke("attribution", "acc_x0", List.of()));
        assertTrue(statements.contains("CREATE ROW POLICY OR REPLACE bi_acc_x1 ON attribution.* USING account_id = 'acc_x1' TO bi_acc_x1"), statements.toString());
        assertTrue(statements.contains("CREATE ROW POLICY OR REPLACE bi_everyone_else ON attribution.* USING 1 TO ALL EXCEPT bi_acc_x0, bi_acc_x1"),
                statements.toString());
        try (TwoEngines two = TwoEngines.start("biddl")) {
            var current = two.engines().get("current");
            for (String s : statements) {
                String formatted = current.select("SELECT formatQuery(" + dev.attribution.clickhouse.ClickHouseSql.str(s) + ") AS q").get(0).get("q").asText();
                assertTrue(formatted.startsWith(s.substring(0, s.indexOf(' '))), s + " → " + formatted);
            }
        }
    }
}
