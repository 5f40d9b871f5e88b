package dev.attribution.server.platform;

import dev.attribution.command.blacklist.Blacklist;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** Spec 7.2.8, 2.20: a write carrying a blacklisted email or phone is refused with 400 and gets no request_id. */
@MicronautTest(transactional = false)
class BlacklistTest extends PlatformTest {

    @Inject
    Blacklist blacklist;

    @Test
    void blacklistedEmailOrPhoneIsRefusedSynchronouslyWithoutRequestId() throws Exception {
        Acct a = account();
        Acct other = account();
        try (Connection c = TestStack.get().connect()) {
            Blacklist.add(c, a.id(), "Erased@Example.com", List.of("+1 (555) 010-0000"));
        }
        int before = requests(a.id());
        Response byEmail = post(a.key(), "/api/v1.0/leads", "{\"email\":\"erased@example.COM\"}");
        assertError(byEmail, 400, Blacklist.MESSAGE);
        assertFalse(byEmail.raw().contains("request_id"));
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"new@example.com\",\"phoneNumbers\":[\"+15550100000\"]}"), 400,
                Blacklist.MESSAGE);
        assertError(post(a.key(), "/api/v1.0/leads", "{\"phoneNumbers\":\"+1 555 010 0000\"}"), 400, Blacklist.MESSAGE);
        assertEquals(before, requests(a.id()), "nothing was recorded");

        assertEquals(200, post(a.key(), "/api/v1.0/leads", "{\"email\":\"fine@example.com\"}").status());
        assertEquals(200, post(other.key(), "/api/v1.0/leads", "{\"email\":\"erased@example.com\"}").status(),
                "a blacklist belongs to one account");
    }

    private static int requests(String accountId) throws Exception {
        try (Connection c = TestStack.get().connect();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM write_requests WHERE account_id = ?")) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
