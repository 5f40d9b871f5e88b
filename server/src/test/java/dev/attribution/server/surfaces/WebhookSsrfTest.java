package dev.attribution.server.surfaces;

import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Without the test switch, loopback targets are refused like every other non-public address. */
@MicronautTest(transactional = false)
class WebhookSsrfTest extends ApiTest {

    @Test
    void loopbackRefusedByDefault() {
        String key = newAccount();
        for (String url : new String[]{"http://127.0.0.1:8080/", "http://localhost/", "http://[::1]/", "https://127.8.9.10/"}) {
            Response r = post(key, "/api/v1.0/webhook-subscriptions",
                    "{\"name\":\"n\",\"targetUrl\":\"" + url + "\",\"eventTypes\":[\"lead.tag.added\"]}");
            assertEquals(400, r.status(), url);
            assertEquals("targetUrl must resolve to a public address", r.message(), url);
        }
    }
}
