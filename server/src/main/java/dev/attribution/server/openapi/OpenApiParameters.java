package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.QueryParameter;
import dev.attribution.server.mcp.ApiOperation;
import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.annotation.AnnotationValue;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * An operation's parameters in the OpenAPI document, from the declarations its endpoint validates with: path
 * variables from the route, query parameters from its {@link QueryParameter} interface (type, required, allowed values,
 * bounds, list maximum and encoding), and the headers its method declares with {@code @Parameter(in = HEADER)}
 * (e.g. {@code Idempotency-Key} through {@code @AcceptsIdempotencyKey}).
 */
final class OpenApiParameters {

    /** Spec 4.0's list encoding, as every list parameter's description ends. */
    static final String LIST_ENCODING = "A list is one value of comma-separated double-quoted items, e.g. "
            + "`\"a\",\"b\"` (URL-encoded: `%22a%22%2C%22b%22`); a value holding a comma or a double quote must be quoted.";
    static final String DATE_FORMS = "A date `yyyy-MM-dd` or a date-time `yyyy-MM-ddTHH:mm[:ss[.SSS]]`, optionally with "
            + "`Z` or an offset `+HH:mm`; without an offset it is read in the account's time zone (spec 2.2).";

    private OpenApiParameters() {
    }

    static ArrayNode of(ApiOperation op, AnnotationMetadata method) {
        ArrayNode params = OpenApiSchemas.object().arrayNode();
        for (String v : op.pathVariables()) {
            params.addObject().put("name", v).put("in", "path").put("required", true)
                    .put("description", "the " + v + " of the resource").putObject("schema").put("type", "string");
        }
        op.query().parameters().forEach((name, spec) -> {
            if (spec.kind() != QueryParameter.Kind.REFUSED) {
                params.add(query(name, spec));
            }
        });
        for (AnnotationValue<Parameter> p : method.getAnnotationValuesByType(Parameter.class)) {
            if (p.enumValue("in", ParameterIn.class).orElse(ParameterIn.DEFAULT) == ParameterIn.HEADER) {
                params.add(header(p));
            }
        }
        params.addObject().put("$ref", "#/components/parameters/AccessibleAccountId");
        return params;
    }

    static ObjectNode query(String name, QueryParameter.Spec spec) {
        ObjectNode p = OpenApiSchemas.object().put("name", name).put("in", "query");
        if (spec.isRequired()) {
            p.put("required", true);
        }
        ObjectNode schema = OpenApiSchemas.object();
        String description = spec.description();
        switch (spec.kind()) {
            case LIST -> {
                schema.put("type", "string");
                description += ". At most " + spec.max() + " items"
                        + (spec.values().isEmpty() ? "" : ", each one of " + quoted(spec)) + ". " + LIST_ENCODING;
                if (spec.isRequired()) { // Swagger UI sends every example it shows: optional filters stay empty
                    p.put("example", spec.values().isEmpty() ? "\"value1\",\"value2\"" : "\"" + spec.values().get(0) + "\"");
                }
            }
            case INTEGER -> schema.put("type", "integer").put("format", "int32")
                    .put("minimum", spec.min()).put("maximum", spec.max());
            case BOOLEAN -> schema.put("type", "boolean");
            case DATE -> {
                schema.put("type", "string").put("pattern", "^" + ApiDates.INPUT_PATTERN + "$");
                description += ". " + DATE_FORMS;
                if (spec.isRequired()) {
                    p.put("example", "2026-01-31");
                }
            }
            default -> schema.put("type", "string");
        }
        if (spec.kind() != QueryParameter.Kind.LIST && !spec.values().isEmpty()) {
            ArrayNode values = schema.putArray("enum");
            spec.values().forEach(values::add);
        }
        if (spec.plusIsLiteral()) {
            description += ". A raw `+` in the value is a plus sign, not a space.";
        }
        p.put("description", capitalized(description.replace("..", ".")));
        p.set("schema", schema);
        return p;
    }

    private static ObjectNode header(AnnotationValue<Parameter> p) {
        ObjectNode h = OpenApiSchemas.object().put("name", p.stringValue("name").orElseThrow()).put("in", "header");
        if (p.booleanValue("required").orElse(false)) {
            h.put("required", true);
        }
        p.stringValue("description").ifPresent(d -> h.put("description", d));
        ObjectNode schema = h.putObject("schema").put("type", "string");
        p.getAnnotation("schema", Schema.class).ifPresent(s -> {
            s.intValue("minLength").ifPresent(v -> schema.put("minLength", v));
            s.intValue("maxLength").ifPresent(v -> schema.put("maxLength", v));
            s.stringValue("pattern").ifPresent(v -> schema.put("pattern", v));
        });
        return h;
    }

    private static String quoted(QueryParameter.Spec spec) {
        return spec.values().stream().map(v -> "`" + v + "`").collect(Collectors.joining(", "));
    }

    static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The {@code Accessible-Account-Id} header every operation takes (spec 5.5). */
    static Map<String, Object> accessibleAccountId() {
        return Map.of("name", "Accessible-Account-Id", "in", "header", "required", false,
                "description", "Agencies: act on this connected client account (spec 5.5). Refused with 403 unless "
                        + "the caller holds an approved connection with it.",
                "schema", Map.of("type", "string"));
    }
}
