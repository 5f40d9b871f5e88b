package dev.attribution.server.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpStatelessServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The tools: one per {@link ApiOperation}, each a call to that endpoint through {@link LoopbackApi}, plus
 * {@code search_docs}, which searches the operations' documentation and takes no {@code accessible_account_id}
 * (spec 5.6). A 2xx answer is the tool's result; any other status is a tool error carrying the endpoint's messages.
 */
@Singleton
class McpTools {

    static final String SEARCH_DOCS = "search_docs";
    /** Transport-context keys set by {@link McpController} for each HTTP request. */
    static final String CONTEXT_API_KEY = "apiKey";

    private final ApiOperations operations;
    private final LoopbackApi api;
    /** Decimals stay exact (money amounts) when the endpoint's JSON becomes the tool's structured content. */
    private final ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    McpTools(ApiOperations operations, LoopbackApi api) {
        this.operations = operations;
        this.api = api;
    }

    List<SyncToolSpecification> specifications() {
        List<SyncToolSpecification> tools = new ArrayList<>();
        for (ApiOperation op : operations.all()) {
            McpSchema.Tool tool = McpSchema.Tool.builder()
                    .name(op.toolName())
                    .title(op.httpLine())
                    .description(op.description())
                    .inputSchema(op.inputSchema())
                    .annotations(new McpSchema.ToolAnnotations(null, "GET".equals(op.method()),
                            "DELETE".equals(op.method()), !"POST".equals(op.method()), false, null))
                    .build();
            tools.add(SyncToolSpecification.builder().tool(tool).callHandler((ctx, req) -> call(op, ctx, req)).build());
        }
        tools.add(SyncToolSpecification.builder().tool(searchDocsTool()).callHandler(this::searchDocs).build());
        return tools;
    }

    private McpSchema.CallToolResult call(ApiOperation op, McpTransportContext ctx, McpSchema.CallToolRequest req) {
        Map<String, Object> args = new LinkedHashMap<>(req.arguments() == null ? Map.of() : req.arguments());
        Object target = args.remove(ApiOperation.ACCESSIBLE_ACCOUNT_ID);
        if (target != null && !(target instanceof String)) {
            return error(ApiOperation.ACCESSIBLE_ACCOUNT_ID + " must be a string");
        }
        String path = op.path();
        for (String v : op.pathVariables()) {
            Object value = args.remove(v);
            if (value == null || String.valueOf(value).isBlank()) {
                return error("Missing required argument: " + v);
            }
            path = path.replaceFirst("\\{" + v + "[^}]*}", encodePath(String.valueOf(value)));
        }
        Object bodyArg = args.remove(ApiOperation.BODY);
        String body = null;
        String contentType = null;
        if (bodyArg instanceof String s) {
            body = s;
            contentType = s.stripLeading().startsWith("{") || s.stripLeading().startsWith("[") ? "application/json" : "text/plain";
        } else if (bodyArg != null) {
            try {
                body = json.writeValueAsString(bodyArg);
            } catch (JsonProcessingException e) {
                return error("body is not JSON");
            }
        }
        String query = args.entrySet().stream()
                .filter(e -> e.getValue() != null)
                .map(e -> enc(e.getKey()) + "=" + enc(queryValue(e.getValue())))
                .collect(Collectors.joining("&"));
        String apiKey = (String) ctx.get(CONTEXT_API_KEY);
        try {
            LoopbackApi.Reply reply = api.send(apiKey, (String) target, op.method(),
                    path + (query.isEmpty() ? "" : "?" + query), body, contentType);
            return result(reply);
        } catch (IOException e) {
            return error("The API could not be reached: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error("Interrupted");
        }
    }

    /** Spec 4.0's list form for arrays ({@code "a","b"}); other values as text. */
    private static String queryValue(Object value) {
        if (value instanceof List<?> list) {
            return list.stream().map(v -> '"' + String.valueOf(v) + '"').collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    private McpSchema.CallToolResult result(LoopbackApi.Reply reply) {
        boolean ok = reply.status() >= 200 && reply.status() < 300;
        Map<String, Object> meta = new LinkedHashMap<>();
        meta.put("httpStatus", reply.status());
        for (String h : List.of("X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After")) {
            String v = reply.header(h);
            if (v != null) {
                meta.put(h, v);
            }
        }
        McpSchema.CallToolResult.Builder b = McpSchema.CallToolResult.builder().isError(!ok).meta(meta);
        JsonNode parsed = parse(reply);
        if (parsed != null && parsed.isObject()) {
            b.structuredContent(json.convertValue(parsed, Map.class));
        }
        if (ok) {
            b.addTextContent(reply.body());
        } else {
            b.addTextContent("HTTP " + reply.status() + ": " + messages(parsed, reply.body()));
        }
        return b.build();
    }

    private JsonNode parse(LoopbackApi.Reply reply) {
        if (!reply.contentType().contains("json") || reply.body() == null || reply.body().isBlank()) {
            return null;
        }
        try {
            return json.readTree(reply.body());
        } catch (IOException notJson) {
            return null;
        }
    }

    /** The {@code message} lines of the error envelope, one per line (spec 7.1). */
    private static String messages(JsonNode envelope, String raw) {
        JsonNode m = envelope == null ? null : envelope.get("message");
        if (m == null) {
            return raw == null ? "" : raw;
        }
        if (!m.isArray()) {
            return m.asText();
        }
        List<String> lines = new ArrayList<>();
        m.forEach(x -> lines.add(x.asText()));
        return String.join("\n", lines);
    }

    private McpSchema.Tool searchDocsTool() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", Map.of("query", Map.of("type", "string",
                "description", "words to look for in the operations' paths, roles, summaries and parameters")));
        schema.put("required", List.of("query"));
        schema.put("additionalProperties", false);
        return McpSchema.Tool.builder()
                .name(SEARCH_DOCS)
                .title("Search the API documentation")
                .description("Finds the operations (and their tools) whose path, role, summary or parameters mention every"
                        + " word of the query. Does not accept " + ApiOperation.ACCESSIBLE_ACCOUNT_ID + ".")
                .inputSchema(schema)
                .annotations(new McpSchema.ToolAnnotations(null, true, false, true, false, null))
                .build();
    }

    private McpSchema.CallToolResult searchDocs(McpTransportContext ctx, McpSchema.CallToolRequest req) {
        Map<String, Object> args = req.arguments() == null ? Map.of() : req.arguments();
        if (args.containsKey(ApiOperation.ACCESSIBLE_ACCOUNT_ID)) {
            return error(SEARCH_DOCS + " does not accept " + ApiOperation.ACCESSIBLE_ACCOUNT_ID);
        }
        Object q = args.get("query");
        if (!(q instanceof String query) || query.isBlank()) {
            return error("Missing required argument: query");
        }
        List<String> words = List.of(query.toLowerCase(Locale.ROOT).trim().split("\\s+"));
        List<Map<String, Object>> matches = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (ApiOperation op : operations.all()) {
            String haystack = (op.toolName() + " " + op.description() + " " + op.query().parameters().entrySet().stream()
                    .map(p -> p.getKey() + " " + p.getValue().description()).collect(Collectors.joining(" ")))
                    .toLowerCase(Locale.ROOT);
            if (words.stream().allMatch(haystack::contains)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("tool", op.toolName());
                m.put("operation", op.httpLine());
                m.put("role", op.role());
                m.put("description", op.description());
                m.put("parameters", op.queryParameterNames());
                matches.add(m);
                text.append(op.toolName()).append(" — ").append(op.description()).append('\n');
            }
        }
        return McpSchema.CallToolResult.builder()
                .structuredContent(Map.of("matches", matches))
                .addTextContent(matches.isEmpty() ? "No operation matches '" + query + "'." : text.toString().strip())
                .isError(false)
                .build();
    }

    private static McpSchema.CallToolResult error(String message) {
        return McpSchema.CallToolResult.builder().isError(true).addTextContent(message).build();
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String encodePath(String s) {
        return enc(s).replace("+", "%20");
    }
}
