package dev.attribution.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A request body read as a JSON object, with typed accessors that answer 400 with the field's name when a value
 * has the wrong shape. Every write endpoint reads its body through this class, so the leniency rules of spec 4.1
 * (string or array, blank means none) and the wrong-type messages are written once.
 */
public final class JsonBody {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    static {
        MAPPER.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(64).maxNumberLength(64).maxStringLength(1_000_000).build());
    }

    /** A body carrying a NUL character, raw or as a JSON escape. */
    public static final String INVALID_CHARACTER = "The request contains an invalid character (NUL)";
    /** A string (value or field name) holding half of a UTF-16 surrogate pair, e.g. the JSON escape {@code \\ud800} alone. */
    public static final String UNPAIRED_SURROGATE = "The request contains an invalid character (unpaired surrogate)";
    /**
     * A string holding U+FFFD, the character invalid UTF-8 bytes decode to: the body was not valid UTF-8 (a sender
     * of a literal U+FFFD is refused too; it is never data, docs/clients.md "Invalid characters").
     */
    public static final String INVALID_UTF8 = "The request contains invalid UTF-8";

    private final ObjectNode node;
    /** The fields its endpoint declares ({@link RequestBodyType}); null for a part read without a declaration. */
    private final Set<String> declared;

    private JsonBody(ObjectNode node, Set<String> declared) {
        this.node = node;
        this.declared = declared;
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * Parses a body that must be one JSON object, declared by {@code type} (the endpoint's {@link RequestBodyType}):
     * reading a field the record does not declare is a programming error ({@link IllegalStateException}), so what
     * the endpoint reads is what its declaration (and its MCP tool's schema) says.
     */
    public static JsonBody parse(String raw, Class<? extends Record> type) {
        return new JsonBody(parse(raw).node, fieldsOf(type));
    }

    /** Parses a body that must be one JSON object. */
    public static JsonBody parse(String raw) {
        if (raw == null || raw.isBlank()) {
            throw ApiException.badRequest("Request body is required and must be a JSON object");
        }
        if (raw.indexOf('\u0000') >= 0 || raw.toLowerCase(java.util.Locale.ROOT).contains("\\u0000")) {
            throw ApiException.badRequest(INVALID_CHARACTER); // PostgreSQL cannot store NUL in text
        }
        try {
            JsonNode tree = MAPPER.readTree(raw);
            if (tree == null || !tree.isObject()) {
                throw ApiException.badRequest("Request body must be a JSON object");
            }
            checkCharacters(tree);
            return new JsonBody((ObjectNode) tree, null);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest(malformed(e));
        }
    }

    /**
     * {@code Malformed JSON at line 1, column 12: Unexpected end-of-input: expected close marker for Object}: where
     * the parser stopped and its reason, without the parts of Jackson's message that describe its own input source
     * ({@code (start marker at [Source: REDACTED …])}) or a second line of detail.
     */
    /**
     * Refuses text the database would silently change: an unpaired surrogate (PostgreSQL's encoder writes {@code ?})
     * or U+FFFD (an invalid UTF-8 byte already replaced on decoding), in any value or field name at any depth.
     */
    private static void checkCharacters(JsonNode node) {
        if (node.isTextual()) {
            checkText(node.textValue());
        } else if (node.isObject()) {
            for (Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                checkText(e.getKey());
                checkCharacters(e.getValue());
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                checkCharacters(item);
            }
        }
    }

    private static void checkText(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\uFFFD') {
                throw ApiException.badRequest(INVALID_UTF8);
            }
            if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw ApiException.badRequest(UNPAIRED_SURROGATE);
            }
        }
    }

    static String malformed(JsonProcessingException e) {
        String reason = e.getOriginalMessage() == null ? "unreadable input" : e.getOriginalMessage();
        for (String tail : new String[]{" (start marker at", "\n", " at [Source"}) {
            int cut = reason.indexOf(tail);
            if (cut > 0) {
                reason = reason.substring(0, cut);
            }
        }
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return "Malformed JSON" + where + ": " + reason.strip();
    }

    public static JsonBody of(ObjectNode node) {
        return new JsonBody(node, null);
    }

    public ObjectNode node() {
        return node;
    }

    public boolean has(String field) {
        return get(field) != null;
    }

    /** True when the field is present and not null. */
    public boolean present(String field) {
        JsonNode v = get(field);
        return v != null && !v.isNull();
    }

    /**
     * The JSON field names of a {@link RequestBodyType} record: each component's {@code @JsonProperty} name, or its
     * own name; a {@code @JsonUnwrapped} component contributes its record's fields.
     */
    @SuppressWarnings("unchecked")
    public static Set<String> fieldsOf(Class<? extends Record> type) {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        for (java.lang.reflect.RecordComponent c : type.getRecordComponents()) {
            java.lang.reflect.Field field;
            try { // Jackson's annotations target fields, where the compiler puts a component's annotations
                field = type.getDeclaredField(c.getName());
            } catch (NoSuchFieldException e) {
                throw new IllegalStateException(e);
            }
            if (field.isAnnotationPresent(com.fasterxml.jackson.annotation.JsonUnwrapped.class) && c.getType().isRecord()) {
                names.addAll(fieldsOf((Class<? extends Record>) c.getType()));
                continue;
            }
            com.fasterxml.jackson.annotation.JsonProperty p = field.getAnnotation(com.fasterxml.jackson.annotation.JsonProperty.class);
            names.add(p != null && !p.value().isEmpty() ? p.value() : c.getName());
        }
        return java.util.Collections.unmodifiableSet(names);
    }

    /** The field's value; the field must be declared (see {@link #parse(String, Class)}). */
    private JsonNode get(String field) {
        if (declared != null && !declared.contains(field)) {
            throw new IllegalStateException("Body field '" + field + "' is read but not declared by the endpoint");
        }
        return node.get(field);
    }

    /** Rejects fields outside {@code allowed} with {@code Unknown field: <name>} (enforcing endpoints of 4.0). */
    public JsonBody rejectUnknown(Set<String> allowed) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("Unknown field: " + name);
            }
        }
        return this;
    }

    /** A string field; numbers and booleans are not strings. Absent or null: empty. */
    public Optional<String> string(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw ApiException.badRequest(field + " must be a string");
        }
        return Optional.of(v.asText());
    }

    /** A string that must not be blank when present. */
    public Optional<String> nonBlankString(String field) {
        return string(field).map(String::trim).filter(s -> !s.isEmpty());
    }

    public Optional<Boolean> bool(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isBoolean()) {
            throw ApiException.badRequest(field + " must be a boolean");
        }
        return Optional.of(v.booleanValue());
    }

    public Optional<BigDecimal> decimal(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isNumber()) {
            throw ApiException.badRequest(field + " must be a number");
        }
        return Optional.of(v.decimalValue());
    }

    /**
     * A field that is one string or an array of strings (spec 4.1 {@code tags}, {@code phoneNumbers}): a blank
     * string or null is no value; any other shape is 400.
     */
    public Optional<List<String>> stringOrList(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (v.isTextual()) {
            String s = v.asText().trim();
            return s.isEmpty() ? Optional.empty() : Optional.of(List.of(s));
        }
        if (v.isArray()) {
            return Optional.of(stringItems(field, v));
        }
        throw ApiException.badRequest(field + " must be a string or an array of strings");
    }

    /** A field that must be an array of strings; blank items are dropped. */
    public Optional<List<String>> stringList(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isArray()) {
            throw ApiException.badRequest(field + " must be an array of strings");
        }
        return Optional.of(stringItems(field, v));
    }

    /** A nested object, or empty. */
    public Optional<JsonBody> object(String field) {
        JsonNode v = get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (v.getNodeType() != JsonNodeType.OBJECT) {
            throw ApiException.badRequest(field + " must be an object");
        }
        return Optional.of(new JsonBody((ObjectNode) v, null));
    }

    private static List<String> stringItems(String field, JsonNode array) {
        List<String> out = new ArrayList<>(array.size());
        for (JsonNode item : array) {
            if (!item.isTextual()) {
                throw ApiException.badRequest(field + " must be an array of strings");
            }
            String s = item.asText().trim();
            if (!s.isEmpty()) {
                out.add(s);
            }
        }
        return out;
    }
}
