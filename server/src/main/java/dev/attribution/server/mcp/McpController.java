package dev.attribution.server.mcp;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.ErrorResponses;
import dev.attribution.api.auth.Account;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeyFilter;
import dev.attribution.api.auth.ApiKeys;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;

import java.io.IOException;
import java.util.Map;

/**
 * {@code /mcp}: the MCP streamable-HTTP endpoint, stateless (no session, one JSON response per POSTed request). The
 * {@code API-Key} header is checked first (401 with the API's envelope when absent, wrong, revoked or of an inactive
 * account, spec 5.2); each tool call then goes through the API itself with that key (see {@link LoopbackApi}).
 */
@ServedBy(NodeSide.EVERY_NODE)
@Controller("/mcp")
@ExecuteOn(TaskExecutors.BLOCKING)
class McpController {

    private final AccountDirectory directory;
    private final AgencyAccounts agencies;
    private final McpEndpoint endpoint;

    McpController(AccountDirectory directory, AgencyAccounts agencies, McpEndpoint endpoint) {
        this.directory = directory;
        this.agencies = agencies;
        this.endpoint = endpoint;
    }

    @Post(consumes = MediaType.ALL, produces = MediaType.APPLICATION_JSON)
    HttpResponse<?> post(HttpRequest<?> request, @Nullable @Body String body) {
        String key = request.getHeaders().get(ApiKeyFilter.API_KEY_HEADER);
        Account owner = key == null || key.isBlank() ? null : directory.findCredentials(ApiKeys.hash(key.trim()))
                .map(c -> c.grant().account()).filter(Account::active).orElse(null);
        if (owner == null) {
            return ErrorResponses.of(ApiException.unauthorized());
        }
        ObjectMapper mapper = ((JacksonMcpJsonMapper) endpoint.jsonMapper()).getObjectMapper();
        JsonNode tree;
        try {
            tree = mapper.readTree(body == null ? "" : body);
        } catch (IOException e) {
            return jsonRpcError(HttpStatus.BAD_REQUEST, null, McpSchema.ErrorCodes.PARSE_ERROR, "Invalid message format");
        }
        String refused = malformed(tree);
        if (refused != null) {
            return jsonRpcError(HttpStatus.BAD_REQUEST, tree == null ? null : tree.get("id"), McpSchema.ErrorCodes.INVALID_REQUEST, refused);
        }
        McpSchema.JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(endpoint.jsonMapper(), body);
        } catch (IOException | RuntimeException e) {
            return jsonRpcError(HttpStatus.BAD_REQUEST, tree.get("id"), McpSchema.ErrorCodes.INVALID_REQUEST, "Invalid message format");
        }
        McpTransportContext context = McpTransportContext.create(Map.of(McpTools.CONTEXT_API_KEY, key.trim()));
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            endpoint.handler().handleNotification(context, notification)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
            return HttpResponse.accepted();
        }
        if (!(message instanceof McpSchema.JSONRPCRequest rpc)) {
            return jsonRpcError(HttpStatus.BAD_REQUEST, null, McpSchema.ErrorCodes.INVALID_REQUEST,
                    "The server accepts either requests or notifications");
        }
        McpSchema.JSONRPCResponse response;
        try {
            response = endpoint.handler().handleRequest(context, rpc)
                    .contextWrite(c -> c.put(McpTransportContext.KEY, context)).block();
        } catch (RuntimeException e) { // arguments the SDK could not read (e.g. params of the wrong shape)
            return jsonRpcError(HttpStatus.BAD_REQUEST, tree.get("id"), McpSchema.ErrorCodes.INVALID_PARAMS,
                    "Invalid params for " + rpc.method());
        }
        try {
            tree = mapper.readTree(endpoint.jsonMapper().writeValueAsString(response));
            if (McpSchema.METHOD_TOOLS_LIST.equals(rpc.method()) && !agencies.isAgency(owner.id())) {
                hideAccessibleAccountId(tree);
            }
            return HttpResponse.ok(mapper.writeValueAsString(tree)).contentType(MediaType.APPLICATION_JSON_TYPE);
        } catch (IOException e) {
            return jsonRpcError(HttpStatus.INTERNAL_SERVER_ERROR, null, McpSchema.ErrorCodes.INTERNAL_ERROR, e.getMessage());
        }
    }

    /** Spec 5.6: the argument is advertised only to agency accounts (it is still validated on every call). */
    private static void hideAccessibleAccountId(JsonNode response) {
        for (JsonNode tool : response.path("result").path("tools")) {
            JsonNode properties = tool.path("inputSchema").path("properties");
            if (properties instanceof ObjectNode p) {
                p.remove(ApiOperation.ACCESSIBLE_ACCOUNT_ID);
            }
        }
    }

    /** Stateless: no server-to-client stream to open and no session to end. */
    @Get(produces = MediaType.ALL)
    HttpResponse<?> get() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }

    @Delete(consumes = MediaType.ALL, produces = MediaType.ALL)
    HttpResponse<?> delete() {
        return HttpResponse.status(HttpStatus.METHOD_NOT_ALLOWED);
    }

    /**
     * Why a parsed body is no JSON-RPC 2.0 message the SDK can read, or null: it must be an object with
     * {@code "jsonrpc": "2.0"}, a string {@code method} when it has one, an object (or array) {@code params}, and a
     * string or number {@code id}. Checked here because the SDK fails with an exception (a 500) on such bodies.
     */
    static String malformed(JsonNode tree) {
        if (tree == null || !tree.isObject()) {
            return "A JSON-RPC message must be a JSON object";
        }
        if (!"2.0".equals(tree.path("jsonrpc").textValue())) {
            return "jsonrpc must be \"2.0\"";
        }
        if (tree.has("method") && !tree.get("method").isTextual()) {
            return "method must be a string";
        }
        if (tree.has("params") && !tree.get("params").isObject() && !tree.get("params").isArray()) {
            return "params must be an object";
        }
        if (tree.has("id") && !tree.get("id").isTextual() && !tree.get("id").isIntegralNumber()) {
            return "id must be a string or an integer";
        }
        return null;
    }

    private static HttpResponse<?> jsonRpcError(HttpStatus status, JsonNode id, int code, String message) {
        String idText = id == null || !(id.isTextual() || id.isIntegralNumber()) ? "null" : id.toString();
        String text = "{\"jsonrpc\":\"2.0\",\"id\":" + idText + ",\"error\":{\"code\":" + code + ",\"message\":"
                + com.fasterxml.jackson.databind.node.TextNode.valueOf(message == null ? "" : message) + "}}";
        return HttpResponse.status(status).body(text).contentType(MediaType.APPLICATION_JSON_TYPE);
    }
}
