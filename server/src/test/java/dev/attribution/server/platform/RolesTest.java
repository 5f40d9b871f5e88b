package dev.attribution.server.platform;

import dev.attribution.api.auth.Roles;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 5.3, 5.4: a missing role is 403 naming it; roles are judged against what the account permits now. */
@MicronautTest(transactional = false)
class RolesTest extends PlatformTest {

    static final String FORBIDDEN = "Forbidden, missing api key roles";

    @Test
    void keyWithoutCreateLeadsCannotPostLeads() {
        Acct a = account(List.of(Roles.GET_LEADS));
        assertError(post(a.key(), "/api/v1.0/leads", lead("a@example.com")), 403, FORBIDDEN, Roles.CREATE_LEADS);
        assertEquals(200, get(a.key(), "/api/v1.0/leads").status());
    }

    @Test
    void keyWithoutGetLeadsCannotListLeads() {
        Acct a = account(List.of(Roles.CREATE_LEADS));
        assertError(get(a.key(), "/api/v1.0/leads"), 403, FORBIDDEN, Roles.GET_LEADS);
        assertError(get(a.key(), "/api/v1.0/leads/aggregation?attribute=TAG"), 403, FORBIDDEN, Roles.GET_LEAD_AGGREGATION);
    }

    @Test
    void forbiddenResponseIsAnAuthenticatedResponseWithRateLimitHeaders() {
        Acct a = account(List.of());
        Response r = get(a.key(), "/api/v1.0/leads");
        assertError(r, 403, FORBIDDEN, Roles.GET_LEADS);
        assertEquals("30;w=1, 1000;w=60", r.header("X-RateLimit-Limit"));
    }

    @Test
    void readOnlyKeyReadsButWritesNothingEvenWhenItCarriesWriteRoles() {
        Acct a = account();
        String readOnly = key(a.id(), Roles.ALL, true);
        assertEquals(200, get(readOnly, "/api/v1.0/leads").status());
        assertEquals(200, get(readOnly, "/api/v1.0/leads/aggregation?attribute=TAG").status());
        assertError(post(readOnly, "/api/v1.0/leads", lead("ro@example.com")), 403, FORBIDDEN, Roles.CREATE_LEADS);
    }

    @Test
    void webhookSubscriptionsHaveRolesAndReadOnlyKeysOnlyListThem() {
        Acct a = account();
        String readOnly = key(a.id(), Roles.ALL, true);
        String body = "{\"name\":\"n\",\"targetUrl\":\"https://hooks.example.com/x\",\"eventTypes\":[\"sale.refunded\"]}";
        assertEquals(200, get(readOnly, "/api/v1.0/webhook-subscriptions").status());
        assertError(post(readOnly, "/api/v1.0/webhook-subscriptions", body), 403, FORBIDDEN, Roles.CREATE_WEBHOOK_SUBSCRIPTIONS);
        assertError(put(readOnly, "/api/v1.0/webhook-subscriptions/x", "{\"name\":\"m\"}"), 403, FORBIDDEN, Roles.UPDATE_WEBHOOK_SUBSCRIPTIONS);
        assertError(delete(readOnly, "/api/v1.0/webhook-subscriptions/x"), 403, FORBIDDEN, Roles.DELETE_WEBHOOK_SUBSCRIPTIONS);
        String leadsOnly = key(a.id(), List.of(Roles.GET_LEADS), false);
        assertError(get(leadsOnly, "/api/v1.0/webhook-subscriptions"), 403, FORBIDDEN, Roles.GET_WEBHOOK_SUBSCRIPTIONS);
    }

    @Test
    void keyLosesARoleWhenTheAccountLosesThePermissionAndRegainsIt() {
        Acct a = account();
        assertEquals(200, post(a.key(), "/api/v1.0/leads", lead("p@example.com")).status());
        List<String> withoutCreate = new ArrayList<>(Roles.ALL);
        withoutCreate.remove(Roles.CREATE_LEADS);
        directory.setPermittedRoles(a.id(), withoutCreate);
        assertError(post(a.key(), "/api/v1.0/leads", lead("p@example.com")), 403, FORBIDDEN, Roles.CREATE_LEADS);
        assertEquals(200, get(a.key(), "/api/v1.0/leads").status());
        directory.setPermittedRoles(a.id(), null);
        assertEquals(200, post(a.key(), "/api/v1.0/leads", lead("p@example.com")).status());
    }

    @Test
    void requestStatusNeedsAKeyButNoParticularRole() {
        Acct writer = account();
        String id = post(writer.key(), "/api/v1.0/leads", lead("s@example.com")).body().get("request_id").asText();
        String bare = key(writer.id(), List.of(), false);
        assertEquals(200, get(bare, "/api/v1.0/requests/" + id).status());
    }

    @Test
    void theEmailImportRoleMigrationGrantsItToKeysThatMayImportAdSpendAndNeverToReadOnlyKeys() throws Exception {
        List<String> before = new ArrayList<>(Roles.ALL);
        before.remove(Roles.IMPORT_EMAIL_EVENTS);
        Acct a = account(before);
        key(a.id(), before, true);
        key(a.id(), List.of(Roles.GET_LEADS, Roles.CREATE_LEADS), false);
        directory.setPermittedRoles(a.id(), before);
        String sql;
        try (InputStream in = getClass().getResourceAsStream("/db/migration/V96__email_event_import_role.sql")) {
            sql = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        try (Connection c = TestStack.get().connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute(sql);
                try (ResultSet rs = s.executeQuery("SELECT read_only, 'Import Email Events' = ANY (roles) FROM api_keys WHERE account_id = '"
                        + a.id() + "' ORDER BY id")) {
                    List<String> granted = new ArrayList<>();
                    while (rs.next()) {
                        granted.add((rs.getBoolean(1) ? "read-only " : "") + rs.getBoolean(2));
                    }
                    assertEquals(List.of("true", "read-only false", "false"), granted, "first key, read-only key, leads-only key");
                }
                try (ResultSet rs = s.executeQuery("SELECT 'Import Email Events' = ANY (permitted_roles) FROM accounts WHERE id = '"
                        + a.id() + "'")) {
                    rs.next();
                    assertTrue(rs.getBoolean(1), "the plan permits it with the ad-spend import");
                }
            } finally {
                c.rollback();
            }
        }
    }
}
