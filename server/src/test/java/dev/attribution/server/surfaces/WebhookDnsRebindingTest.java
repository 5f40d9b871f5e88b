package dev.attribution.server.surfaces;

import dev.attribution.command.webhooks.WebhookDns;
import dev.attribution.server.support.ApiTest;
import dev.attribution.testing.TestStack;
import io.micronaut.test.annotation.MockBean;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DNS rebinding against the SSRF guard (loopback refused, the default): the target's name answers a public address
 * and a loopback one in turn, as a rebinding DNS server does between a check and a connect. Each attempt connects
 * to exactly the answer it checked, so nothing ever reaches the loopback listener, and the attempts answered
 * loopback are recorded as refused.
 */
@MicronautTest(transactional = false)
class WebhookDnsRebindingTest extends ApiTest {

    /** TEST-NET-3 (RFC 5737): public to the guard, routed nowhere. */
    private static final byte[] PUBLIC = {(byte) 203, 0, 113, 7};

    private final ServerSocket loopback;
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger lookups = new AtomicInteger();

    WebhookDnsRebindingTest() throws IOException {
        loopback = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!loopback.isClosed()) {
                try (Socket s = loopback.accept()) {
                    connections.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "loopback-listener");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    @Override
    public Map<String, String> getProperties() {
        Map<String, String> p = new HashMap<>(super.getProperties());
        p.put("attribution.webhooks.timeout", "PT1S");
        p.put("attribution.webhooks.initial-backoff", "PT0.05S");
        p.put("attribution.webhooks.max-backoff", "PT0.2S");
        p.put("attribution.webhooks.poll-interval", "PT0.05S");
        return p;
    }

    /** Odd lookups of *.rebind.test answer the public address, even ones loopback; other names resolve normally. */
    @MockBean(WebhookDns.class)
    WebhookDns rebinding() {
        return host -> {
            if (!host.endsWith(".rebind.test")) {
                return InetAddress.getAllByName(host);
            }
            return new InetAddress[]{lookups.incrementAndGet() % 2 == 1
                    ? InetAddress.getByAddress(host, PUBLIC) : InetAddress.getLoopbackAddress()};
        };
    }

    @AfterAll
    void close() throws IOException {
        loopback.close();
    }

    @Test
    void aRebindingAnswerNeverReachesTheRefusedAddress() throws Exception {
        String key = newAccount();
        Response created = post(key, "/api/v1.0/webhook-subscriptions", "{\"name\":\"r\",\"targetUrl\":\"http://hooks.rebind.test:"
                + loopback.getLocalPort() + "/r\",\"eventTypes\":[\"lead.tag.added\"]}");
        assertEquals(200, created.status(), "the first answer is public: " + created.raw());
        String externalId = created.body().get("result").get("externalId").asText();
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"rebind@example.com\",\"tags\":[\"r\"]}");

        Set<String> errors = new LinkedHashSet<>();
        await(() -> {
            Object[] row = delivery(externalId);
            if (row != null && row[1] != null) {
                errors.add((String) row[1]);
            }
            return row != null && (int) row[0] >= 6 && errors.size() >= 2 ? true : null;
        });
        assertEquals(0, connections.get(), "no connection reached the loopback address");
        assertTrue(errors.contains("target refused: targetUrl must resolve to a public address"), errors.toString());
        // where the public address has no route at all (no default route: this machine, where CI runs too), the
        // connect fails at once with "Network is unreachable" instead of timing out: either way that address was tried
        assertTrue(errors.stream().anyMatch(e -> e.contains("Connect to http://hooks.rebind.test:") || e.contains("Network is unreachable")),
                "the attempts answered public tried that address (routed nowhere): " + errors);
        assertTrue(lookups.get() >= 7, "one lookup per attempt, plus the check at creation: " + lookups.get());
    }

    /** attempts and last_error of the subscription's one delivery, or null before it exists. */
    private static Object[] delivery(String externalId) {
        try (Connection c = TestStack.get().connect(); PreparedStatement ps = c.prepareStatement("SELECT d.attempts, d.last_error "
                + "FROM webhook_deliveries d JOIN webhook_subscriptions s ON s.id = d.subscription_id WHERE s.external_id = ?")) {
            ps.setString(1, externalId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new Object[]{rs.getInt(1), rs.getString(2)} : null;
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
