package dev.attribution.server.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code /api/v1.0} operation as a tool: its name, HTTP method, path template, role and documentation, and the
 * JSON schema of its arguments. Everything is derived from the route and {@link OperationDocs}, never written twice.
 */
record ApiOperation(String toolName, String method, String path, String role, List<String> pathVariables,
                    OperationDocs.Doc doc) {

    static final String PREFIX = "/api/v1.0";
    /** Spec 5.6: the optional agency target of every operation tool. */
    static final String ACCESSIBLE_ACCOUNT_ID = "accessible_account_id";
    static final String BODY = "body";

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}/?:]+)[^}]*}");

    static ApiOperation of(String method, String path, String role) {
        List<String> vars = new ArrayList<>();
        Matcher m = VARIABLE.matcher(path);
        while (m.find()) {
            vars.add(m.group(1));
        }
        OperationDocs.Doc doc = OperationDocs.of(method, path).orElse(new OperationDocs.Doc(null, List.of(), null));
        return new ApiOperation(toolName(method, path), method, path, role, List.copyOf(vars), doc);
    }

    /** {@code GET /api/v1.0/leads/clicks} → {@code get_leads_clicks}; {@code DELETE …/calls/{id}} → {@code delete_calls_by_id}. */
    static String toolName(String method, String path) {
        String verb = switch (method) {
            case "GET" -> "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "DELETE" -> "delete";
            default -> method.toLowerCase(Locale.ROOT);
        };
        StringBuilder name = new StringBuilder(verb);
        for (String segment : path.substring(PREFIX.length()).split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            Matcher v = VARIABLE.matcher(segment);
            String part = v.matches() ? "by_" + snake(v.group(1)) : snake(segment);
            name.append('_').append(part);
        }
        return name.toString();
    }

    private static String snake(String s) {
        return s.replaceAll("([a-z0-9])([A-Z])", "$1_$2").replace('-', '_').toLowerCase(Locale.ROOT);
    }

    boolean takesBody() {
        return !"GET".equals(method);
    }

    String httpLine() {
        return method + " " + path;
    }

    String description() {
        StringBuilder d = new StringBuilder();
        if (doc.summary() != null) {
            d.append(doc.summary()).append(' ');
        }
        d.append("HTTP: ").append(httpLine()).append('.');
        d.append(role == null ? " No role required." : " Role: " + role + ".");
        d.append(" Arguments other than path variables and body are sent as query parameters.");
        return d.toString();
    }

    /** The input schema: path variables (required), documented query parameters, body, accessible_account_id. */
    Map<String, Object> inputSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String v : pathVariables) {
            properties.put(v, Map.of("type", "string", "description", "path variable {" + v + "}"));
        }
        for (OperationDocs.Param p : doc.params()) {
            properties.put(p.name(), switch (p.type()) {
                case "list" -> Map.of("type", "array", "items", Map.of("type", "string"), "description", p.description());
                default -> Map.of("type", p.type(), "description", p.description());
            });
        }
        if (takesBody()) {
            properties.put(BODY, Map.of("type", List.of("object", "array", "string"), "description",
                    "the JSON request body" + (doc.body() == null ? "" : ": " + doc.body())));
        }
        properties.put(ACCESSIBLE_ACCOUNT_ID, Map.of("type", "string", "description",
                "act on this connected client account (agencies; spec 5.5). Refused unless the caller holds an approved"
                        + " connection with it."));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        if (!pathVariables.isEmpty()) {
            schema.put("required", pathVariables);
        }
        schema.put("additionalProperties", true);
        return schema;
    }
}
