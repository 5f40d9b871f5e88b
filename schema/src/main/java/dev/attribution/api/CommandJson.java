package dev.attribution.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanProperty;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.deser.ContextualDeserializer;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.module.SimpleDeserializers;
import com.fasterxml.jackson.databind.type.CollectionType;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a write's command record (issue 25: {@code CreateCall}, {@code CreateSource}…) is read from a request body and
 * from {@code write_requests.payload}, and written there. One mapper, with {@link JsonBody}'s leniency and messages:
 * <ul>
 *   <li>a body is first parsed by {@link JsonBody#parse(String)} (object only, NUL, surrogates, malformed JSON);</li>
 *   <li>a {@code String} component takes only a JSON string ({@code name must be a string}), a {@code Boolean} only
 *       a boolean, a {@code BigDecimal} only a number ({@code cost must be a number});</li>
 *   <li>a {@link StringOrList} takes a string (blank: none) or an array of strings (blank items dropped);
 *       a {@code List<String>} an array of strings ({@code tags must be an array of strings}, blank items dropped),
 *       null as an empty list (sent, without values), absent as null;</li>
 *   <li>an enum takes one of its names exactly, else {@link FixedSet}'s {@code Invalid state 'x'. Accepted values: …};
 *       on a component marked {@link BlankIsAbsent} a blank value is none and the value is trimmed first;</li>
 *   <li>unknown fields are ignored (an enforcing endpoint refuses them first, {@link #bind(String, Class, boolean)}).</li>
 * </ul>
 * What a body means beyond its shapes (required fields, blank strings, ranges) is the feature's rules class's.
 * A payload is written without its null components, so it reads like those of earlier versions.
 */
public final class CommandJson {

    private static final ObjectMapper MAPPER = JsonBody.mapper().copy()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .configure(DeserializationFeature.WRAP_EXCEPTIONS, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL)
            // @JsonProperty(required = true) declares the contract; the rules class says "Missing required field"
            .setAnnotationIntrospector(new com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasRequiredMarker(com.fasterxml.jackson.databind.introspect.AnnotatedMember m) {
                    return null;
                }
            })
            .registerModule(module());

    private CommandJson() {
    }

    /** Binds a request body to its command record (400 in the error envelope for every refusal). */
    public static <T extends Record> T bind(String raw, Class<T> type) {
        return bind(raw, type, false);
    }

    /** With {@code enforcing}, a field the record does not declare is refused with {@code Unknown field: <name>}. */
    public static <T extends Record> T bind(String raw, Class<T> type, boolean enforcing) {
        JsonBody body = JsonBody.parse(raw);
        if (enforcing) {
            body.rejectUnknown(JsonBody.fieldsOf(type));
        }
        return read(body.node(), type);
    }

    /** Reads a stored payload (or a body's tree) as the command record. */
    public static <T extends Record> T read(JsonNode tree, Class<T> type) {
        try {
            return MAPPER.treeToValue(tree, type);
        } catch (IOException | IllegalArgumentException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof ApiException api) {
                    throw api;
                }
            }
            if (e instanceof JsonMappingException m && !m.getPath().isEmpty()) {
                String field = m.getPath().get(m.getPath().size() - 1).getFieldName();
                throw ApiException.badRequest((field == null ? "body" : field) + " has an invalid value");
            }
            throw new IllegalArgumentException("cannot read " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    /** The payload stored for a command: its non-null components. */
    public static ObjectNode tree(Record command) {
        return MAPPER.valueToTree(command);
    }

    /** The name of the field being read, for messages ({@code price}, not {@code items[0].price}: as JsonBody). */
    static String field(JsonParser p) {
        JsonStreamContext c = p.getParsingContext();
        while (c != null && c.getCurrentName() == null) {
            c = c.getParent();
        }
        return c == null ? "body" : c.getCurrentName();
    }

    private static SimpleModule module() {
        SimpleDeserializers d = new SimpleDeserializers() {
            @Override
            public JsonDeserializer<?> findEnumDeserializer(Class<?> type, DeserializationConfig config, BeanDescription bean) {
                return new FixedEnum(type, false);
            }

            @Override
            public JsonDeserializer<?> findCollectionDeserializer(CollectionType type, DeserializationConfig config,
                    BeanDescription bean, TypeDeserializer typeDeserializer, JsonDeserializer<?> elementDeserializer) {
                return type.getContentType().hasRawClass(String.class) && type.getRawClass().isAssignableFrom(List.class)
                        ? STRING_LIST : null;
            }
        };
        d.addDeserializer(String.class, new JsonDeserializer<>() {
            @Override
            public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                if (!p.hasToken(JsonToken.VALUE_STRING)) {
                    throw ApiException.badRequest(field(p) + " must be a string");
                }
                return p.getText();
            }
        });
        d.addDeserializer(Boolean.class, new JsonDeserializer<>() {
            @Override
            public Boolean deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                if (!p.currentToken().isBoolean()) {
                    throw ApiException.badRequest(field(p) + " must be a boolean");
                }
                return p.getBooleanValue();
            }
        });
        d.addDeserializer(BigDecimal.class, new JsonDeserializer<>() {
            @Override
            public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                if (!p.currentToken().isNumeric()) {
                    throw ApiException.badRequest(field(p) + " must be a number");
                }
                return p.getDecimalValue();
            }
        });
        d.addDeserializer(StringOrList.class, new JsonDeserializer<>() {
            @Override
            public StringOrList deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                String field = field(p);
                if (p.hasToken(JsonToken.VALUE_STRING)) {
                    String s = p.getText().trim();
                    return new StringOrList(s.isEmpty() ? List.of() : List.of(s));
                }
                if (p.isExpectedStartArrayToken()) {
                    return new StringOrList(items(p, field));
                }
                throw ApiException.badRequest(field + " must be a string or an array of strings");
            }
        });
        SimpleModule m = new SimpleModule("commands");
        m.setDeserializers(d);
        m.addSerializer(StringOrList.class, new com.fasterxml.jackson.databind.JsonSerializer<>() {
            @Override
            public void serialize(StringOrList value, com.fasterxml.jackson.core.JsonGenerator g,
                                  com.fasterxml.jackson.databind.SerializerProvider provider) throws IOException {
                g.writeStartArray();
                for (String s : value.values() == null ? List.<String>of() : value.values()) {
                    g.writeString(s);
                }
                g.writeEndArray();
            }
        });
        return m;
    }

    /** A {@code List<String>}: an array of strings, blank items dropped ({@link JsonBody#stringList}). */
    private static final JsonDeserializer<List<String>> STRING_LIST = new JsonDeserializer<>() {
        @Override
        public List<String> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = field(p);
            if (!p.isExpectedStartArrayToken()) {
                throw ApiException.badRequest(field + " must be an array of strings");
            }
            return items(p, field);
        }

        /** A field sent as null is an empty list (JsonBody: {@code has} it, no values); absent stays null. */
        @Override
        public List<String> getNullValue(DeserializationContext ctxt) {
            return List.of();
        }

        @Override
        public Object getAbsentValue(DeserializationContext ctxt) {
            return null;
        }
    };

    private static List<String> items(JsonParser p, String field) throws IOException {
        List<String> out = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            if (t != JsonToken.VALUE_STRING) {
                throw ApiException.badRequest(field + " must be an array of strings");
            }
            String s = p.getText().trim();
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }

    /** An enum read with {@link FixedSet}'s rule and message; {@link BlankIsAbsent}: trimmed, blank is none. */
    static final class FixedEnum extends JsonDeserializer<Object> implements ContextualDeserializer {
        private final Class<?> type;
        private final boolean blankIsAbsent;

        FixedEnum(Class<?> type, boolean blankIsAbsent) {
            this.type = type;
            this.blankIsAbsent = blankIsAbsent;
        }

        @Override
        public JsonDeserializer<?> createContextual(DeserializationContext ctxt, BeanProperty property) {
            return new FixedEnum(type, property != null && property.getAnnotation(BlankIsAbsent.class) != null);
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Object deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String field = field(p);
            if (!p.hasToken(JsonToken.VALUE_STRING)) {
                throw ApiException.badRequest(field + " must be a string");
            }
            String value = p.getText();
            if (blankIsAbsent) {
                value = value.trim();
                if (value.isEmpty()) {
                    return null;
                }
            }
            List<String> names = Arrays.stream(type.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList();
            return Enum.valueOf((Class) type, FixedSet.require(field, value, names));
        }

        @Override
        public Object getNullValue(DeserializationContext ctxt) {
            return null;
        }
    }
}
