package dev.attribution.server.mcp;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The MCP surface (spec 5.6) through the SDK's own client over streamable HTTP against the running server. */
@MicronautTest(transactional = false)
class McpSurfaceTest extends ApiTest {

    private static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},\
            "clientInfo":{"name":"t","version":"1"}}}""";

    private final List<McpSyncClient> clients = new ArrayList<>();

    @AfterEach
    void closeClients() {
        clients.forEach(McpSyncClient::closeGracefully);
    }

    /** An initialized SDK client that sends {@code API-Key: key} on every request. */
    private McpSyncClient client(String key) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(server.getURL().toString())
                .endpoint("/mcp")
                .httpRequestCustomizer((builder, method, uri, body, context) -> {
                    if (key != null) {
                        builder.header("API-Key", key);
                    }
                })
                .build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(60)).build();
        clients.add(client);
        client.initialize();
        return client;
    }

    private record Acct(String id, String key) {
    }

    private Acct account(List<String> roles) {
        String id = RequestIds.next("acc_");
        directory.createAccount(id, "Test " + id, null, ZoneId.of("America/New_York"), "USD");
        String key = ApiKeys.newKey();
        directory.createKey(id, ApiKeys.hash(key), roles, false);
        return new Acct(id, key);
    }

    private static McpSchema.CallToolResult call(McpSyncClient client, String tool, Map<String, Object> args) {
        return client.callTool(new McpSchema.CallToolRequest(tool, args));
    }

    private static String text(McpSchema.CallToolResult result) {
        return result.content().stream().filter(c -> c instanceof McpSchema.TextContent)
                .map(c -> ((McpSchema.TextContent) c).text()).collect(Collectors.joining("\n"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> structured(McpSchema.CallToolResult result) {
        return (Map<String, Object>) result.structuredContent();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(McpSchema.Tool tool) {
        return (Map<String, Object>) tool.inputSchema().get("properties");
    }

    @Test
    void listsOneToolPerOperationWithSchemasFromTheEndpointsDeclarations() {
        McpSyncClient client = client(newAccount());
        Map<String, McpSchema.Tool> tools = client.listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
        assertTrue(tools.keySet().containsAll(Set.of("create_leads", "get_leads", "update_leads", "delete_leads",
                "create_leads_tags", "get_leads_journey", "get_attribution", "get_sales", "create_orders",
                "delete_calls_by_id", "get_url_rules_by_id", "get_requests_by_request_id", "search_docs")), tools.keySet().toString());
        McpSchema.Tool getLeads = tools.get("get_leads");
        assertEquals("GET /api/v1.0/leads", getLeads.title());
        assertTrue(getLeads.description().contains("Role: Get Leads."), getLeads.description());
        assertEquals(Map.of("type", "string"), ((Map<?, ?>) properties(getLeads).get("emails")).get("items"));
        assertEquals("array", ((Map<?, ?>) properties(getLeads).get("emails")).get("type"));
        assertEquals(List.of("id"), tools.get("delete_calls_by_id").inputSchema().get("required"));
        assertTrue(properties(tools.get("create_leads")).containsKey("body"));
        // spec 5.6: advertised only to agency accounts; never on docs-search
        assertFalse(properties(getLeads).containsKey("accessible_account_id"));
        assertFalse(properties(tools.get("search_docs")).containsKey("accessible_account_id"));
    }

    @Test
    void agencyAccountsSeeAccessibleAccountIdAdvertisedExceptOnDocsSearch() {
        Acct agency = account(Roles.ALL);
        Acct client = account(Roles.ALL);
        directory.link(agency.id(), client.id(), "APPROVED");
        Map<String, McpSchema.Tool> tools = client(agency.key()).listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, t -> t));
        assertTrue(properties(tools.get("get_leads")).containsKey("accessible_account_id"));
        assertTrue(properties(tools.get("create_leads")).containsKey("accessible_account_id"));
        assertFalse(properties(tools.get("search_docs")).containsKey("accessible_account_id"));
    }

    @Test
    void aWriteToolThenAReadToolEndToEnd() {
        McpSyncClient client = client(newAccount());
        McpSchema.CallToolResult accepted = call(client, "create_leads", Map.of("body",
                Map.of("email", "mcp.lead@example.com", "firstName", "Grace", "tags", List.of("!mcp"))));
        assertFalse(accepted.isError(), text(accepted));
        assertEquals("OK", structured(accepted).get("result"));
        assertNotNull(accepted.meta().get("X-RateLimit-Limit"), "the endpoint's rate-limit headers travel in _meta");
        String requestId = (String) structured(accepted).get("request_id");

        Map<String, Object> status = await(() -> {
            McpSchema.CallToolResult r = call(client, "get_requests_by_request_id", Map.of("requestId", requestId));
            @SuppressWarnings("unchecked")
            Map<String, Object> s = r.isError() ? null : (Map<String, Object>) structured(r).get("result");
            return s != null && !"PENDING".equals(s.get("status")) ? s : null;
        });
        assertEquals("PROCESSED", status.get("status"));

        McpSchema.CallToolResult leads = call(client, "get_leads", Map.of("emails", List.of("mcp.lead@example.com")));
        assertFalse(leads.isError(), text(leads));
        List<?> result = (List<?>) structured(leads).get("result");
        assertEquals(1, result.size());
        assertEquals("Grace", ((Map<?, ?>) result.get(0)).get("firstName"));
    }

    @Test
    void aBadArgumentGivesTheEndpointsOwn400AsAToolError() {
        McpSyncClient client = client(newAccount());
        McpSchema.CallToolResult r = call(client, "get_leads", Map.of("fromDate", "2024-02-01", "toDate", "2024-01-01"));
        assertTrue(r.isError());
        assertEquals("HTTP 400: fromDate cannot be later than toDate", text(r));
    }

    @Test
    void theDeclaredLimitsAreInTheSchemaSoTheClientIsToldBeforeTheCall() {
        McpSyncClient client = client(newAccount());
        McpSchema.Tool getLeads = client.listTools().tools().stream().filter(t -> t.name().equals("get_leads")).findFirst().orElseThrow();
        assertEquals(Map.of("type", "integer", "minimum", 1, "maximum", 250, "description", "items per page (default 50)"),
                properties(getLeads).get("pageSize"));
        assertEquals(50, ((Map<?, ?>) properties(getLeads).get("emails")).get("maxItems"));
        McpSchema.CallToolResult r = call(client, "get_leads", Map.of("pageSize", 0));
        assertTrue(r.isError());
        assertTrue(text(r).contains("/pageSize: must have a minimum value of 1"), text(r));
    }

    @Test
    void aMissingRoleIsAToolErrorNamingTheRole() {
        McpSyncClient client = client(newAccount("America/New_York", List.of(Roles.GET_LEADS)));
        McpSchema.CallToolResult r = call(client, "create_leads", Map.of("body", Map.of("email", "nope@example.com")));
        assertTrue(r.isError());
        assertEquals("HTTP 403: Forbidden, missing api key roles\nCreate Leads", text(r));
    }

    @Test
    void theCallersRateLimitAppliesToToolCalls() {
        Acct caller = account(Roles.ALL);
        directory.setRateOverride(caller.id(), 1, 1000);
        McpSyncClient client = client(caller.key());
        McpSchema.CallToolResult first = call(client, "get_user_info", Map.of());
        McpSchema.CallToolResult second = call(client, "get_user_info", Map.of());
        assertFalse(first.isError(), text(first));
        assertEquals("1;w=1, 1000;w=60", first.meta().get("X-RateLimit-Limit"));
        assertTrue(second.isError());
        assertTrue(text(second).startsWith("HTTP 429: The limit of API requests was reached."), text(second));
        assertNotNull(second.meta().get("Retry-After"));
    }

    @Test
    void accessibleAccountIdIsValidatedOnEveryCall() {
        Acct agency = account(Roles.ALL);
        Acct client = account(Roles.ALL);
        Acct stranger = account(Roles.ALL);
        directory.link(agency.id(), client.id(), "APPROVED");
        McpSyncClient mcp = client(agency.key());

        McpSchema.CallToolResult refused = call(mcp, "get_leads", Map.of("accessible_account_id", stranger.id()));
        assertTrue(refused.isError());
        assertEquals("HTTP 403: Account " + stranger.id() + " is not one of your connected client accounts", text(refused));

        McpSchema.CallToolResult write = call(mcp, "create_leads", Map.of("accessible_account_id", stranger.id(),
                "body", Map.of("email", "x@example.com")));
        assertTrue(write.isError());
        assertTrue(text(write).contains("is not one of your connected client accounts"));

        McpSchema.CallToolResult allowed = call(mcp, "get_leads", Map.of("accessible_account_id", client.id()));
        assertFalse(allowed.isError(), text(allowed));

        // a non-agency caller is refused the same way (the argument is validated even where it is not advertised)
        McpSchema.CallToolResult notAgency = call(client(stranger.key()), "get_leads", Map.of("accessible_account_id", client.id()));
        assertTrue(notAgency.isError());
        assertEquals("HTTP 403: Account " + client.id() + " is not one of your connected client accounts", text(notAgency));
    }

    @Test
    void anAgencyWriteLandsInTheClientAccountAndAnInactiveClientIsRefused() {
        Acct agency = account(Roles.ALL);
        Acct client = account(Roles.ALL);
        directory.link(agency.id(), client.id(), "APPROVED");
        McpSyncClient mcp = client(agency.key());
        McpSchema.CallToolResult accepted = call(mcp, "create_leads", Map.of("accessible_account_id", client.id(),
                "body", Map.of("email", "agency.made@example.com")));
        assertFalse(accepted.isError(), text(accepted));
        awaitRequest(client.key(), (String) structured(accepted).get("request_id"));

        McpSchema.CallToolResult own = call(client(client.key()), "get_leads", Map.of("emails", List.of("agency.made@example.com")));
        assertEquals(1, ((List<?>) structured(own).get("result")).size());
        McpSchema.CallToolResult agencysOwn = call(mcp, "get_leads", Map.of("emails", List.of("agency.made@example.com")));
        assertEquals(0, ((List<?>) structured(agencysOwn).get("result")).size());

        directory.setState(client.id(), "BLOCKED");
        McpSchema.CallToolResult blocked = call(mcp, "get_leads", Map.of("accessible_account_id", client.id()));
        assertTrue(blocked.isError());
        assertEquals("HTTP 403: Account " + client.id() + " is not active", text(blocked));
    }

    @Test
    void docsSearchFindsOperationsAndRefusesAccessibleAccountId() {
        McpSyncClient client = client(newAccount());
        McpSchema.CallToolResult found = call(client, "search_docs", Map.of("query", "attribution model"));
        assertFalse(found.isError(), text(found));
        List<?> matches = (List<?>) structured(found).get("matches");
        assertTrue(matches.stream().anyMatch(m -> "get_attribution".equals(((Map<?, ?>) m).get("tool"))), matches.toString());

        McpSchema.CallToolResult refused = call(client, "search_docs", Map.of("query", "leads", "accessible_account_id", "acc_x"));
        assertTrue(refused.isError());
        assertTrue(text(refused).contains("accessible_account_id"), text(refused));
    }

    @Test
    void noBadRevokedOrInactiveKeyIs401AtTheHttpLevel() {
        Response none = sendWithHeaders("POST", "/mcp", INITIALIZE, Map.of("Accept", "application/json, text/event-stream"));
        assertEquals(401, none.status());
        assertEquals("ERROR", none.body().get("result").asText());
        Response bad = sendWithHeaders("POST", "/mcp", INITIALIZE, Map.of("API-Key", "not-a-key"));
        assertEquals(401, bad.status());
        assertThrows(RuntimeException.class, () -> client(null));

        Acct account = account(Roles.ALL);
        Response ok = sendWithHeaders("POST", "/mcp", INITIALIZE, Map.of("API-Key", account.key()));
        assertEquals(200, ok.status());
        assertEquals("attribution-api", ok.body().path("result").path("serverInfo").path("name").asText());

        directory.setState(account.id(), "BLOCKED");
        assertEquals(401, sendWithHeaders("POST", "/mcp", INITIALIZE, Map.of("API-Key", account.key())).status());
        directory.revokeKey(ApiKeys.hash(account.key()));
        directory.setState(account.id(), "ACTIVE");
        assertEquals(401, sendWithHeaders("POST", "/mcp", INITIALIZE, Map.of("API-Key", account.key())).status());
    }
}
