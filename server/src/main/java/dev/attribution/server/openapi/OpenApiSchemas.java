package dev.attribution.server.openapi;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.classmate.ResolvedType;
import com.github.victools.jsonschema.generator.FieldScope;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaBuilder;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import dev.attribution.api.ApiDate;
import dev.attribution.server.mcp.BodySchemas;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * The schemas of an OpenAPI 3.0 document, generated from the same records the server reads and writes: request
 * bodies from the {@code @RequestBodyType} records (with {@link BodySchemas}' rules, so the MCP tools and the document
 * agree), responses from the controllers' return types. Every object type becomes a named component.
 * <p>
 * What the server really sends decides {@code required} and {@code nullable}: Micronaut's Jackson leaves out null and
 * empty values by default ({@code NON_EMPTY}), so a property is required and nullable only where the record (or its
 * class) says {@code @JsonInclude(ALWAYS)} — e.g. the list envelope's {@code nextPageId}, null on the last page —
 * or {@code @JsonProperty(required = true)} on a body field. The generator speaks JSON Schema; {@link #toOpenApi30}
 * turns its type arrays, {@code null} alternatives and {@code const} into OpenAPI 3.0's {@code nullable},
 * {@code anyOf} and {@code enum}.
 */
final class OpenApiSchemas {

    private static final String COMPONENTS = "components/schemas";

    private final SchemaBuilder builder;

    OpenApiSchemas() {
        SchemaGeneratorConfigBuilder config = BodySchemas.configure(
                new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_7, OptionPreset.PLAIN_JSON))
                .with(Option.DEFINITIONS_FOR_ALL_OBJECTS)
                .with(Option.EXTRA_OPEN_API_FORMAT_VALUES);
        config.forFields().withNullableCheck(OpenApiSchemas::nullable);
        config.forFields().withRequiredCheck(OpenApiSchemas::always);
        config.forTypesInGeneral().withDefinitionNamingStrategy((key, context) -> name(key.getType()));
        config.forFields().withDescriptionResolver(f -> date(f) == null ? null : date(f).description);
        config.forFields().withStringFormatResolver(f -> date(f) == null ? null : date(f).format);
        config.forFields().withStringPatternResolver(f -> date(f) == null ? null : date(f).pattern);
        this.builder = new SchemaGenerator(config.build()).buildMultipleSchemaDefinitions();
    }

    /** A {@code $ref} to the schema of {@code type} (generics resolved), converted to OpenAPI 3.0. */
    ObjectNode reference(Type type) {
        ObjectNode ref = builder.createSchemaReference(type);
        toOpenApi30(ref);
        return ref;
    }

    /** Every component referenced so far, converted; call once, after the last {@link #reference}. */
    ObjectNode components() {
        ObjectNode defs = builder.collectDefinitions(COMPONENTS);
        toOpenApi30Each(defs);
        inlineNullableVariants(defs);
        return defs;
    }

    /**
     * The generator names a nullable use of an object {@code X-nullable}: {@code nullable} beside an {@code allOf} of
     * {@code X}. OpenAPI 3.0.3 says {@code nullable} does not loosen the {@code allOf}, so a validator refuses the
     * {@code null} the server sends (issue 21's contract test found it on a subscription's {@code category}); the
     * variant becomes a copy of {@code X} with {@code nullable} (and {@code null} among an enum's values).
     */
    private static void inlineNullableVariants(ObjectNode defs) {
        defs.fields().forEachRemaining(e -> {
            JsonNode allOf = e.getValue().path("allOf");
            if (e.getKey().endsWith("-nullable") && allOf.size() == 1 && allOf.get(0).has("$ref")) {
                String target = allOf.get(0).get("$ref").asText();
                JsonNode original = defs.get(target.substring(target.lastIndexOf('/') + 1));
                if (original instanceof ObjectNode o) {
                    ObjectNode copy = o.deepCopy().put("nullable", true);
                    if (copy.get("enum") instanceof ArrayNode values) {
                        values.addNull();
                    }
                    e.setValue(copy);
                }
            }
        });
    }

    /**
     * Whether the server may send {@code null} for a property: it is always written ({@link #always}), and is not a
     * primitive, a collection or marked {@code @NonNull}.
     */
    private static Boolean nullable(FieldScope field) {
        Class<?> type = field.getType().getErasedType();
        boolean never = type.isPrimitive() || java.util.Collection.class.isAssignableFrom(type) || type.isArray()
                || field.getAnnotationConsideringFieldAndGetter(io.micronaut.core.annotation.NonNull.class) != null;
        return always(field) && !never ? Boolean.TRUE : null;
    }

    /** The encoding of a date field ({@code @ApiDate} on the record component), or null. */
    private static ApiDate.Encoding date(FieldScope field) {
        ApiDate date = field.getAnnotationConsideringFieldAndGetter(ApiDate.class);
        return date == null ? null : date.value();
    }

    /** Whether a property is always written: {@code @JsonInclude(ALWAYS)} on the component or on its record. */
    private static boolean always(FieldScope field) {
        JsonInclude own = field.getAnnotationConsideringFieldAndGetter(JsonInclude.class);
        if (own != null && own.value() != JsonInclude.Include.USE_DEFAULTS) {
            return own.value() == JsonInclude.Include.ALWAYS;
        }
        JsonInclude type = field.getDeclaringType().getErasedType().getAnnotation(JsonInclude.class);
        return type != null && type.value() == JsonInclude.Include.ALWAYS;
    }

    /**
     * A component name a generated client can use as a class name: {@code Envelopes.Page<LeadView>} →
     * {@code PageOfLeadView}, {@code SpendImport.Result} → {@code SpendImportResult}.
     */
    static String name(ResolvedType type) {
        Class<?> erased = type.getErasedType();
        io.swagger.v3.oas.annotations.media.Schema named = erased.getAnnotation(io.swagger.v3.oas.annotations.media.Schema.class);
        if (named != null && !named.name().isEmpty() && type.getTypeParameters().isEmpty()) {
            return named.name(); // a command record keeps the component name its body had (generated clients' class)
        }
        StringBuilder n = new StringBuilder();
        Class<?> outer = erased.getEnclosingClass();
        if (outer != null && !outer.getSimpleName().equals("Envelopes")) {
            n.append(outer.getSimpleName());
        }
        n.append(erased.getSimpleName());
        List<ResolvedType> params = type.getTypeParameters();
        for (int i = 0; i < params.size(); i++) {
            n.append(i == 0 ? "Of" : "And").append(name(params.get(i)));
        }
        return n.toString().replaceAll("[^A-Za-z0-9._-]", "");
    }

    /**
     * Removes the component schemas nothing refers to any more (an object whose only use was the nullable variant
     * {@link #inlineNullableVariants} copied it into), until none is left: lint tools count them as errors.
     */
    static void dropUnreferenced(ObjectNode doc) {
        ObjectNode schemas = (ObjectNode) doc.path("components").path("schemas");
        for (boolean dropped = true; dropped; ) {
            Set<String> used = new HashSet<>();
            collectReferences(doc, used);
            List<String> unused = new ArrayList<>();
            schemas.fieldNames().forEachRemaining(n -> {
                if (!used.contains("#/" + COMPONENTS + "/" + n)) {
                    unused.add(n);
                }
            });
            schemas.remove(unused);
            dropped = !unused.isEmpty();
        }
    }

    private static void collectReferences(JsonNode node, Set<String> into) {
        if (node.has("$ref")) {
            into.add(node.get("$ref").asText());
        }
        node.forEach(child -> collectReferences(child, into));
    }

    /** Converts every schema of a name → schema map (the components, an object's properties), in place. */
    static void toOpenApi30Each(JsonNode byName) {
        byName.forEach(OpenApiSchemas::toOpenApi30);
    }

    /** Rewrites the JSON Schema constructs OpenAPI 3.0 lacks, in place, in a schema and the schemas inside it. */
    static void toOpenApi30(JsonNode node) {
        if (!(node instanceof ObjectNode o)) {
            return;
        }
        o.remove(List.of("$schema", "$id", "$comment"));
        if (o.has("const")) {
            o.putArray("enum").add(o.remove("const"));
        }
        if (o.get("type") instanceof ArrayNode types) {
            List<String> kinds = new ArrayList<>();
            types.forEach(t -> kinds.add(t.asText()));
            if (kinds.remove("null")) {
                o.put("nullable", true);
            }
            if (kinds.size() == 1) {
                o.put("type", kinds.get(0));
            } else if (kinds.equals(List.of("string", "array"))) {
                // StringOrList: published as the array it stands for (openapi-generator's Java client does not
                // compile an anyOf of a string and an array); the description keeps the leniency
                o.put("type", "array");
                String said = o.path("description").asText("");
                o.put("description", (said.isEmpty() ? "" : said + ". ") + "A single string is accepted as a one-item array.");
            } else {
                o.remove("type");
                JsonNode items = o.remove("items");
                ArrayNode anyOf = o.putArray("anyOf");
                for (String kind : kinds) {
                    ObjectNode alt = anyOf.addObject().put("type", kind);
                    if (kind.equals("array") && items != null) {
                        alt.set("items", items);
                    }
                }
            }
        }
        for (String combinator : List.of("anyOf", "oneOf", "allOf")) {
            if (o.get(combinator) instanceof ArrayNode alts) {
                for (Iterator<JsonNode> it = alts.iterator(); it.hasNext(); ) {
                    JsonNode alt = it.next();
                    if (alt.size() == 1 && "null".equals(alt.path("type").asText())) {
                        it.remove();
                        o.put("nullable", true);
                    } else {
                        toOpenApi30(alt);
                    }
                }
                if (alts.size() == 1 && !combinator.equals("allOf")) {
                    o.remove(combinator);
                    JsonNode only = alts.get(0);
                    if (only.has("$ref")) {
                        o.putArray("allOf").add(only);
                        if (o.has("nullable")) {
                            o.put("type", "object"); // OpenAPI 3.0: nullable needs a type beside it
                        }
                    } else {
                        ((ObjectNode) only).fields().forEachRemaining(e -> o.set(e.getKey(), e.getValue()));
                    }
                }
            }
        }
        toOpenApi30(o.get("items"));
        toOpenApi30(o.get("additionalProperties"));
        toOpenApi30(o.get("not"));
        if (o.get("properties") != null) {
            toOpenApi30Each(o.get("properties"));
        }
    }

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }
}
