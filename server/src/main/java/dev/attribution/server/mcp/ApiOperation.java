package dev.attribution.server.mcp;

import dev.attribution.api.QueryDeclaration;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.auth.RequiresRole;
import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.type.Argument;
import io.swagger.v3.oas.annotations.Operation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code /api/v1.0} operation as a tool: its name, HTTP method, path template, role, summary, and the JSON schema
 * of its arguments. Everything comes from the route's own declarations — the path, {@code @RequiresRole},
 * {@code @Operation(summary, operationId)} and {@link QueryParameters} — never written a second time. The
 * {@code @Operation} is read from the method itself: the compile-time metadata does not keep it.
 */
public record ApiOperation(String toolName, String method, String path, String role, List<String> pathVariables,
                           String summary, String operationId, QueryDeclaration query, Class<? extends Record> bodyType,
                           boolean bodyEnforcing, Argument<?> returns, List<String> produces,
                           AnnotationMetadata declarations) {

    public static final String PREFIX = "/api/v1.0";
    /** Spec 5.6: the optional agency target of every operation tool. */
    static final String ACCESSIBLE_ACCOUNT_ID = "accessible_account_id";
    static final String BODY = "body";

    private static final Pattern VARIABLE = Pattern.compile("\\{([^}/?:]+)[^}]*}");

    @SuppressWarnings("unchecked")
    static ApiOperation of(String method, String path, AnnotationMetadata declarations, Argument<?> returns,
                           List<String> produces, Operation operation) {
        List<String> vars = new ArrayList<>();
        Matcher m = VARIABLE.matcher(path);
        while (m.find()) {
            vars.add(m.group(1));
        }
        return new ApiOperation(toolName(method, path), method, path,
                declarations.stringValue(RequiresRole.class).orElse(null), List.copyOf(vars),
                operation == null || operation.summary().isBlank() ? null : operation.summary(),
                operation == null || operation.operationId().isBlank() ? null : operation.operationId(),
                QueryDeclaration.of(declarations),
                (Class<? extends Record>) declarations.classValue(RequestBodyType.class).orElse(null),
                declarations.booleanValue(RequestBodyType.class, "enforcing").orElse(false), returns, produces,
                declarations);
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

    /** The example body the endpoint declares ({@code @RequestBodyType(example)}), or null. */
    public String bodyExample() {
        String example = declarations.stringValue(RequestBodyType.class, "example").orElse("");
        return example.isBlank() ? null : example;
    }

    public boolean takesBody() {
        return bodyType != null;
    }

    public String httpLine() {
        return method + " " + path;
    }

    public String description() {
        StringBuilder d = new StringBuilder();
        if (summary != null) {
            d.append(summary).append(' ');
        }
        d.append("HTTP: ").append(httpLine()).append('.');
        d.append(role == null ? " No role required." : " Role: " + role + ".");
        d.append(query.enforcing() ? " Query parameters other than those listed are refused."
                : " Arguments other than path variables and body are sent as query parameters.");
        return d.toString();
    }

    /** The input schema: path variables (required), the declared query parameters, body, accessible_account_id. */
    Map<String, Object> inputSchema() {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (String v : pathVariables) {
            properties.put(v, Map.of("type", "string", "description", "path variable {" + v + "}"));
        }
        query.parameters().forEach((name, spec) -> {
            if (spec.kind() != QueryParameter.Kind.REFUSED) {
                properties.put(name, parameterSchema(spec));
            }
        });
        if (takesBody()) {
            properties.put(BODY, BodySchemas.of(bodyType, bodyEnforcing));
        }
        properties.put(ACCESSIBLE_ACCOUNT_ID, Map.of("type", "string", "description",
                "act on this connected client account (agencies; spec 5.5). Refused unless the caller holds an approved"
                        + " connection with it."));
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        List<String> required = new ArrayList<>(pathVariables);
        query.parameters().forEach((name, spec) -> {
            if (spec.isRequired() && spec.kind() != QueryParameter.Kind.REFUSED) {
                required.add(name);
            }
        });
        if (takesBody()) {
            required.add(BODY);
        }
        if (!required.isEmpty()) {
            schema.put("required", required);
        }
        schema.put("additionalProperties", true);
        return schema;
    }

    /** The names of the query parameters offered to clients (the declared ones, less those refused by name). */
    List<String> queryParameterNames() {
        return query.parameters().entrySet().stream().filter(e -> e.getValue().kind() != QueryParameter.Kind.REFUSED)
                .map(Map.Entry::getKey).toList();
    }

    /** A query parameter's JSON schema; a list (spec 4.0) is a JSON array the tool sends as {@code "a","b"}. */
    public static Map<String, Object> parameterSchema(QueryParameter.Spec spec) {
        Map<String, Object> p = new LinkedHashMap<>();
        switch (spec.kind()) {
            case LIST -> {
                p.put("type", "array");
                p.put("items", spec.values().isEmpty() ? Map.of("type", "string")
                        : Map.of("type", "string", "enum", spec.values()));
                p.put("maxItems", spec.max());
            }
            case INTEGER -> {
                p.put("type", "integer");
                p.put("minimum", spec.min());
                p.put("maximum", spec.max());
            }
            case BOOLEAN -> p.put("type", "boolean");
            case DATE -> p.put("type", "string");
            default -> p.put("type", "string");
        }
        if (!spec.values().isEmpty() && spec.kind() != QueryParameter.Kind.LIST) {
            p.put("enum", spec.values());
        }
        p.put("description", spec.kind() == QueryParameter.Kind.DATE
                ? spec.description() + " (date yyyy-MM-dd or date-time, spec 2.2)" : spec.description());
        return p;
    }
}
