package dev.attribution.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21 point 6: the tools' input schemas say what is required and which values are allowed (as {@code required}
 * and {@code enum}, from the same declarations as the OpenAPI document), their descriptions carry the endpoint
 * summaries, and no malformed JSON-RPC body gets a 5xx.
 */
@MicronautTest(transactional = false)
class McpContractTest extends ApiTest {

    private Response mcp(String key, String body) {
        return sendWithHeaders("POST", "/mcp", body, Map.of("API-Key", key, "Accept", "application/json, text/event-stream"));
    }

    private Map<String, JsonNode> tools(String key) {
        Response r = mcp(key, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
        assertEquals(200, r.status(), r.raw());
        Map<String, JsonNode> byName = new HashMap<>();
        r.body().path("result").path("tools").forEach(t -> byName.put(t.path("name").asText(), t));
        return byName;
    }

    @Test
    void requiredAndEnumAreSchemaKeywordsAndDescriptionsCarryTheSummaries() {
        Map<String, JsonNode> tools = tools(newAccount());
        JsonNode attribution = tools.get("get_attribution").path("inputSchema");
        List<String> required = new ArrayList<>();
        attribution.path("required").forEach(n -> required.add(n.asText()));
        assertTrue(required.containsAll(List.of("attributionModel", "startDate", "endDate", "fields", "level", "ids")),
                required.toString());
        assertTrue(attribution.path("properties").path("attributionModel").path("enum").size() >= 3, attribution.toString());
        JsonNode aggregation = tools.get("get_leads_aggregation").path("inputSchema");
        assertTrue(aggregation.path("properties").path("attribute").path("enum").size() >= 2, aggregation.toString());
        assertTrue(tools.get("get_leads").path("description").asText().startsWith("List leads"),
                tools.get("get_leads").path("description").asText());
        assertTrue(tools.get("create_leads").path("description").asText().startsWith("Create or update a lead"),
                tools.get("create_leads").path("description").asText());
    }

    @Test
    void noMalformedJsonRpcBodyIsA5xx() {
        String key = newAccount();
        List<String> bodies = List.of("null", "42", "true", "\"x\"", "[]", "[1,2]", "{}", "{", "",
                "{\"jsonrpc\":\"2.0\"}",
                "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":42}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":null}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":42}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_leads\",\"arguments\":\"x\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_leads\",\"arguments\":[1]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\",\"arguments\":{}}}",
                "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\",\"params\":5}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}");
        List<String> failures = new ArrayList<>();
        for (String body : bodies) {
            Response r = mcp(key, body);
            if (r.status() >= 500 || r.body() == null) {
                failures.add(body + " -> " + r.status() + " " + r.raw());
            } else if (r.status() >= 400) {
                assertEquals("2.0", r.body().path("jsonrpc").asText(), body + " -> " + r.raw());
                assertTrue(r.body().path("error").path("code").isInt(), body + " -> " + r.raw());
            }
        }
        assertEquals(List.of(), failures);
    }
}
