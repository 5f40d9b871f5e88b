package dev.attribution.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.victools.jsonschema.generator.CustomDefinition;
import com.github.victools.jsonschema.generator.Option;
import com.github.victools.jsonschema.generator.OptionPreset;
import com.github.victools.jsonschema.generator.SchemaGenerator;
import com.github.victools.jsonschema.generator.SchemaGeneratorConfigBuilder;
import com.github.victools.jsonschema.generator.SchemaVersion;
import com.github.victools.jsonschema.module.jackson.JacksonModule;
import com.github.victools.jsonschema.module.jackson.JacksonOption;
import dev.attribution.api.RawFile;
import dev.attribution.api.StringOrList;

import java.util.Map;

/**
 * JSON schemas of request bodies, generated from the records the endpoints declare ({@code @RequestBodyType}) with
 * victools' generator and its Jackson module: {@code @JsonProperty(required = true)} makes a field required,
 * {@code @JsonPropertyDescription} describes it, Java enums give {@code enum}; a {@code StringOrList} field is a string
 * or an array of strings. Everything is inlined (the schema sits
 * inside a tool's input schema, where {@code $ref}s to {@code $defs} would not resolve).
 */
public final class BodySchemas {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SchemaGenerator GENERATOR = generator();

    private BodySchemas() {
    }

    private static SchemaGenerator generator() {
        return new SchemaGenerator(configure(new SchemaGeneratorConfigBuilder(SchemaVersion.DRAFT_2020_12, OptionPreset.PLAIN_JSON))
                .with(Option.INLINE_ALL_SCHEMAS).build());
    }

    /**
     * The rules every schema of a body record follows, here and in the OpenAPI document: Jackson's names, required
     * fields and descriptions, the record's property order, {@code StringOrList} and {@code RawFile}.
     */
    public static SchemaGeneratorConfigBuilder configure(SchemaGeneratorConfigBuilder config) {
        config.with(new JacksonModule(JacksonOption.RESPECT_JSONPROPERTY_REQUIRED))
                .without(Option.SCHEMA_VERSION_INDICATOR);
        config.forTypesInGeneral().withPropertySorter((a, b) -> 0); // the record's order, not alphabetical
        config.forTypesInGeneral().withCustomDefinitionProvider((type, context) -> {
            if (type.getErasedType() == StringOrList.class) {
                ObjectNode node = context.getGeneratorConfig().createObjectNode();
                node.putArray("type").add("string").add("array");
                node.putObject("items").put("type", "string");
                return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.YES);
            }
            if (type.getErasedType() == RawFile.class) {
                ObjectNode node = context.getGeneratorConfig().createObjectNode().put("type", "string")
                        .put("description", "the file itself: CSV with a header row, or JSON lines");
                return new CustomDefinition(node, CustomDefinition.DefinitionType.INLINE, CustomDefinition.AttributeInclusion.NO);
            }
            return null;
        });
        return config;
    }

    /** The schema of {@code type}; an enforcing body refuses other fields ({@code additionalProperties: false}). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> of(Class<? extends Record> type, boolean enforcing) {
        ObjectNode schema = GENERATOR.generateSchema(type);
        if (enforcing) {
            schema.put("additionalProperties", false);
        }
        return JSON.convertValue(schema, Map.class);
    }
}
