package dev.attribution.server.surfaces;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.admin.AdminCli;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GET /user-info, /domains (managed with the admin CLI) and /tracking-script in the shapes the real client reads. */
@MicronautTest(transactional = false)
class AccountEndpointsTest extends ApiTest {

    @Test
    void userInfoDomainsAndTrackingScript() {
        String key = newAccount("Europe/Paris", Roles.ALL);
        JsonNode info = get(key, "/api/v1.0/user-info").body().get("result");
        String accountId = info.get("accountId").asText();
        assertEquals("Europe/Paris", info.get("timeZone").asText());
        assertEquals("USD", info.get("currency").asText());
        assertEquals(Roles.ALL.size(), info.get("roles").size());

        assertEquals("[]", get(key, "/api/v1.0/domains").raw());
        Map<String, String> props = TestStack.get().properties();
        System.setProperty("datasources.default.url", props.get("datasources.default.url"));
        System.setProperty("datasources.default.username", props.get("datasources.default.username"));
        System.setProperty("datasources.default.password", props.get("datasources.default.password") == null ? "" : props.get("datasources.default.password"));
        try {
            assertEquals(0, AdminCli.run(new String[]{"domain", "add", "--account", accountId, "--domain", "Shop.Example.com"}));
            assertEquals(0, AdminCli.run(new String[]{"domain", "add", "--account", accountId, "--domain", "blog.example.com"}));
            assertEquals(0, AdminCli.run(new String[]{"domain", "remove", "--account", accountId, "--domain", "blog.example.com"}));
            assertEquals(2, AdminCli.run(new String[]{"domain", "add", "--account", accountId, "--domain", "not a domain"}));
            assertEquals(2, AdminCli.run(new String[]{"domain", "remove", "--account", accountId, "--domain", "blog.example.com"}));
        } finally {
            System.clearProperty("datasources.default.url");
            System.clearProperty("datasources.default.username");
            System.clearProperty("datasources.default.password");
        }
        assertEquals("[\"shop.example.com\"]", get(key, "/api/v1.0/domains").raw());

        Response script = get(key, "/api/v1.0/tracking-script?domain=shop.example.com&spa=true");
        assertEquals(200, script.status(), script.raw());
        assertTrue(script.header("Content-Type").startsWith("text/plain"));
        assertTrue(script.raw().startsWith("<script>") && script.raw().contains("ph=" + accountId) && script.raw().contains("spa=true"), script.raw());
        assertEquals("Domain not found", get(key, "/api/v1.0/tracking-script?domain=other.example.com").message());
        assertEquals("spa must be true or false", get(key, "/api/v1.0/tracking-script?spa=yes").message());

        String readOnly = newAccount("UTC", List.of(Roles.GET_LEADS));
        Response refused = get(readOnly, "/api/v1.0/tracking-script");
        assertEquals(403, refused.status());
        assertEquals("Read-only users cannot access the tracking script", refused.message());
    }
}
