package dev.attribution.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared body rules: one JSON object, typed fields with 400s naming the field, Unknown field on enforcing endpoints. */
class JsonBodyTest {

    static void assertRefused(String message, org.junit.jupiter.api.function.Executable call) {
        ApiException e = assertThrows(ApiException.class, call);
        assertEquals(400, e.status().getCode());
        assertEquals(List.of(message), e.messages());
    }

    @ParameterizedTest
    @ValueSource(strings = {"{", "{\"a\":1} {}", "{\"a\":1}x", "{\"a\":1,\"a\":2}", "{'a':1}", "{\"a\":01}", "{\"a\":NaN}"})
    void malformedJsonIs400(String raw) {
        ApiException e = assertThrows(ApiException.class, () -> JsonBody.parse(raw));
        assertTrue(e.messages().get(0).startsWith("Malformed JSON"), e.messages().toString());
    }

    @Test
    void malformedJsonSaysWhereAndWhyWithoutTheParsersSourceText() {
        assertRefused("Malformed JSON at line 1, column 12: Unexpected end-of-input: expected close marker for Object",
                () -> JsonBody.parse("{\"email\":12"));
        assertRefused("Malformed JSON at line 2, column 4: Duplicate field 'a'", () -> JsonBody.parse("{\"a\":1,\n\"a\":2}"));
    }

    @Test
    void bodyMustBeOneObject() {
        assertRefused("Request body is required and must be a JSON object", () -> JsonBody.parse(""));
        assertRefused("Request body is required and must be a JSON object", () -> JsonBody.parse(null));
        assertRefused("Request body must be a JSON object", () -> JsonBody.parse("[1]"));
        assertRefused("Request body must be a JSON object", () -> JsonBody.parse("null"));
    }

    @Test
    void nulIsRefusedRawOrEscaped() {
        assertRefused(JsonBody.INVALID_CHARACTER, () -> JsonBody.parse("{\"a\":\"x\u0000\"}"));
        assertRefused(JsonBody.INVALID_CHARACTER, () -> JsonBody.parse("{\"a\":\"x\\u0000\"}"));
        assertRefused(JsonBody.INVALID_CHARACTER, () -> JsonBody.parse("{\"a\":\"x\\U0000\"}"));
    }

    @Test
    void unknownFieldOnEnforcingEndpoints() {
        assertRefused("Unknown field: colour", () -> JsonBody.parse("{\"name\":\"x\",\"colour\":1}").rejectUnknown(Set.of("name")));
        JsonBody.parse("{\"name\":\"x\"}").rejectUnknown(Set.of("name", "price"));
    }

    @Test
    void typedAccessors() {
        JsonBody b = JsonBody.parse("{\"s\":\"x\",\"n\":1.50,\"t\":true,\"blank\":\"  \",\"nul\":null,\"one\":\" a \","
                + "\"many\":[\"a\",\" \",\"b\"],\"o\":{\"k\":1}}");
        assertEquals(Optional.of("x"), b.string("s"));
        assertEquals(Optional.empty(), b.string("nul"));
        assertEquals(Optional.empty(), b.string("absent"));
        assertEquals(Optional.empty(), b.nonBlankString("blank"));
        assertEquals(0, new java.math.BigDecimal("1.50").compareTo(b.decimal("n").orElseThrow()));
        assertEquals(Optional.of(true), b.bool("t"));
        assertEquals(Optional.of(List.of("a")), b.stringOrList("one"));
        assertEquals(Optional.empty(), b.stringOrList("blank"));
        assertEquals(Optional.of(List.of("a", "b")), b.stringOrList("many"));
        assertEquals(Optional.of(List.of("a", "b")), b.stringList("many"));
        assertTrue(b.object("o").isPresent());
        assertRefused("n must be a string", () -> b.string("n"));
        assertRefused("s must be a number", () -> b.decimal("s"));
        assertRefused("s must be a boolean", () -> b.bool("s"));
        assertRefused("s must be an array of strings", () -> b.stringList("s"));
        assertRefused("t must be a string or an array of strings", () -> b.stringOrList("t"));
        assertRefused("s must be an object", () -> b.object("s"));
        assertRefused("many must be a string", () -> b.string("many"));
    }

    @Test
    void limitsOnNestingAndNumbers() {
        assertThrows(ApiException.class, () -> JsonBody.parse("{\"a\":" + "[".repeat(100) + "]".repeat(100) + "}"));
        assertThrows(ApiException.class, () -> JsonBody.parse("{\"a\":" + "9".repeat(100) + "}"));
    }
}
