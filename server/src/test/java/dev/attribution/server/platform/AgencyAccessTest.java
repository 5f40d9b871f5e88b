package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Spec 5.5: Accessible-Account-Id runs a request against an approved client; limits stay the caller's. */
@MicronautTest(transactional = false)
class AgencyAccessTest extends PlatformTest {

    @Test
    void targetWithoutAnyRelationIs403() {
        Acct agency = account();
        Acct client = account();
        assertError(getAs(agency, client.id(), "/api/v1.0/leads"), 403,
                "Account " + client.id() + " is not one of your connected client accounts");
    }

    @Test
    void unknownTargetIs403NotConnected() {
        Acct agency = account();
        assertError(getAs(agency, "acc_nobody", "/api/v1.0/leads"), 403,
                "Account acc_nobody is not one of your connected client accounts");
    }

    @Test
    void pendingOrRevokedRelationIs403NotConnected() {
        Acct agency = account();
        Acct client = account();
        for (String state : new String[]{"PENDING", "REVOKED"}) {
            directory.link(agency.id(), client.id(), state);
            assertError(postAs(agency, client.id(), "/api/v1.0/leads", lead("c@example.com")), 403,
                    "Account " + client.id() + " is not one of your connected client accounts");
        }
    }

    @Test
    void relationInTheOtherDirectionGrantsNothing() {
        Acct agency = account();
        Acct client = account();
        directory.link(client.id(), agency.id(), "APPROVED");
        assertError(getAs(agency, client.id(), "/api/v1.0/leads"), 403,
                "Account " + client.id() + " is not one of your connected client accounts");
    }

    @Test
    void approvedRelationToAnInactiveClientIs403NotActive() {
        Acct agency = account();
        Acct client = account();
        directory.link(agency.id(), client.id(), "APPROVED");
        directory.setState(client.id(), "BLOCKED");
        assertError(getAs(agency, client.id(), "/api/v1.0/leads"), 403, "Account " + client.id() + " is not active");
    }

    @Test
    void approvedRelationRunsTheRequestAgainstTheClient() {
        Acct agency = account();
        Acct client = account();
        directory.link(agency.id(), client.id(), "APPROVED");
        Response accepted = postAs(agency, client.id(), "/api/v1.0/leads", lead("client-lead@example.com"));
        assertEquals(200, accepted.status(), accepted.raw());
        String requestId = accepted.body().get("request_id").asText();

        JsonNode status = await(() -> {
            JsonNode s = getAs(agency, client.id(), "/api/v1.0/requests/" + requestId).body().get("result");
            return "PROCESSED".equals(s.path("status").asText()) ? s : null;
        });
        assertEquals("client-lead@example.com", status.get("result").get("email").asText());
        assertEquals(200, get(client.key(), "/api/v1.0/requests/" + requestId).status(), "the request belongs to the client");
        assertEquals(200, get(agency.key(), "/api/v1.0/requests/" + requestId).status(),
                "and the connected agency reads it without the header too (docs/clients.md \"Who owns a request id\")");

        assertEquals(1, getAs(agency, client.id(), "/api/v1.0/leads").body().get("result").size());
        assertEquals(1, get(client.key(), "/api/v1.0/leads").body().get("result").size());
        assertEquals(0, get(agency.key(), "/api/v1.0/leads").body().get("result").size(), "nothing lands on the agency");
    }

    @Test
    void ownAccountIdAsTargetIsTheOwnAccount() {
        Acct a = account();
        assertEquals(200, getAs(a, a.id(), "/api/v1.0/leads").status());
    }

    @Test
    void rolesAreTheCallersKeyRoles() {
        Acct agency = account(java.util.List.of(dev.attribution.api.auth.Roles.GET_LEADS));
        Acct client = account();
        directory.link(agency.id(), client.id(), "APPROVED");
        assertError(postAs(agency, client.id(), "/api/v1.0/leads", lead("r@example.com")), 403,
                "Forbidden, missing api key roles", dev.attribution.api.auth.Roles.CREATE_LEADS);
    }

    @Test
    void rateLimitIsChargedToTheCallerNotTheClient() {
        Acct agency = account();
        Acct client = account();
        directory.link(agency.id(), client.id(), "APPROVED");
        directory.setRateOverride(agency.id(), 2, 100);
        assertEquals(200, getAs(agency, client.id(), "/api/v1.0/leads").status());
        Response second = getAs(agency, client.id(), "/api/v1.0/leads");
        assertEquals(200, second.status());
        assertEquals("2;w=1, 100;w=60", second.header("X-RateLimit-Limit"), "the caller's policy");
        assertEquals("0", second.header("X-RateLimit-Remaining"));
        assertError(getAs(agency, client.id(), "/api/v1.0/leads"), 429);

        Response own = get(client.key(), "/api/v1.0/leads");
        assertEquals(200, own.status(), "the client's budget is untouched");
        assertEquals("30;w=1, 1000;w=60", own.header("X-RateLimit-Limit"));
        assertEquals("29", own.header("X-RateLimit-Remaining"));
    }
}
