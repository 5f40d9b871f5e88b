package dev.attribution.server.platform;

import dev.attribution.api.auth.Roles;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
