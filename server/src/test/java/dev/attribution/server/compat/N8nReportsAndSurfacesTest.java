package dev.attribution.server.compat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.compat.N8nClient.Answer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link N8nApiTest} on the account surfaces: user info, domains, tracking script, webhooks. The node's report requests
 * (as it sends them, every field and level it offers, the dates it refuses) run on the ids a workflow wrote itself:
 * {@link N8nOwnSourceReportsTest}.
 */
@MicronautTest(transactional = false)
class N8nReportsAndSurfacesTest extends N8nApiTest {

    // ---------------------------------------------------------------- account surfaces, webhooks

    @Test
    void userInfoDomainsTrackingScript() {
        Answer info = n8n.get("/user-info", null);
        ok(info);
        assertTrue(info.result().isObject(), info.toString());
        Answer domains = n8n.get("/domains", null);
        ok(domains);
        assertTrue(domains.body().isArray(), "the node maps the answer itself: " + domains);
        Answer script = n8n.get("/tracking-script", q("spa", true, "embed", false));
        ok(script);
        assertTrue(script.raw().contains("<script"), script.toString());
        ok(n8n.get("/tracking-script", null));
    }

    @Test
    void trackingScriptWithEveryOption() {
        ok(n8n.get("/tracking-script", q("spa", true, "ignorePrevUrl", true, "embed", true, "deleteTrackingScriptParams", false)));
    }

    @Test
    void webhookSubscriptions() {
        Answer created = n8n.request("POST", "/webhook-subscriptions", """
                {"name":"N8n hook","targetUrl":"http://127.0.0.1:9/n8n-hook","eventTypes":["sale.attributed","lead.tag.added"]}""",
                null);
        ok(created);
        String externalId = created.result().get("externalId").asText();
        assertNotNull(created.result().get("secretKey"));
        Answer list = n8n.get("/webhook-subscriptions", null);
        ok(list);
        assertTrue(list.result().isArray());
        assertNull(list.result().get(0).get("secretKey"));
        ok(n8n.request("DELETE", "/webhook-subscriptions/" + externalId, null, null));
        JsonNode left = n8n.get("/webhook-subscriptions", null).result();
        left.forEach(w -> assertTrue(!externalId.equals(w.get("externalId").asText()) || "DELETED".equals(w.get("state").asText()),
                left.toString()));
    }
}
