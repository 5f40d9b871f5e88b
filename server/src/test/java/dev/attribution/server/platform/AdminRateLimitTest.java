package dev.attribution.server.platform;

import dev.attribution.server.admin.AdminCli;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Spec 8.1.2: per-account limits are raised or lowered with the admin CLI and take effect on the next request. */
@MicronautTest(transactional = false)
class AdminRateLimitTest extends PlatformTest {

    @Test
    void adminCliOverridesAndRestoresAnAccountsLimits() {
        Acct a = account();
        assertEquals("30;w=1, 1000;w=60", get(a.key(), "/api/v1.0/leads").header("X-RateLimit-Limit"));

        assertEquals(0, admin("account", "set-rate-limit", "--account", a.id(), "--per-second", "2", "--per-minute", "500"));
        Response lowered = get(a.key(), "/api/v1.0/leads");
        assertEquals("2;w=1, 500;w=60", lowered.header("X-RateLimit-Limit"));
        assertEquals(200, get(a.key(), "/api/v1.0/leads").status());
        assertError(get(a.key(), "/api/v1.0/leads"), 429);

        assertEquals(0, admin("account", "set-rate-limit", "--account", a.id()));
        assertEquals("30;w=1, 1000;w=60", get(a.key(), "/api/v1.0/leads").header("X-RateLimit-Limit"), "defaults restored");
        assertEquals(2, admin("account", "set-rate-limit", "--account", "acc_nobody", "--per-second", "1"), "unknown account");
    }

    /** Runs the admin CLI against this test's database (it reads the datasource from system properties). */
    private static int admin(String... args) {
        Map<String, String> p = TestStack.get().properties();
        String[] keys = {"datasources.default.url", "datasources.default.username", "datasources.default.password"};
        Map<String, String> saved = new java.util.HashMap<>();
        for (String k : keys) {
            saved.put(k, System.getProperty(k));
            System.setProperty(k, p.get(k));
        }
        try {
            return AdminCli.run(args);
        } finally {
            saved.forEach((k, v) -> {
                if (v == null) {
                    System.clearProperty(k);
                } else {
                    System.setProperty(k, v);
                }
            });
        }
    }
}
