package dev.attribution.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Spec 4.0: list parameters, strict and lenient reading. */
class QueryParamsTest {

    /** A declaration as an endpoint writes one. */
    interface Declared extends QueryParameter.Paged {
        Spec color = Spec.string("a colour");
        Spec ids = Spec.list(50, "ids");
        Spec email = Spec.contact("an email");
        Spec emails = Spec.contacts(50, "emails");
    }

    static final QueryDeclaration ENFORCING = QueryDeclaration.of(Declared.class, true);
    static final QueryDeclaration LENIENT = QueryDeclaration.of(Declared.class, false);

    static QueryParams lenient(String query) {
        return QueryParams.of(params(query), LENIENT);
    }

    static io.micronaut.http.HttpParameters params(String query) {
        return TestParams.of(query);
    }

    static void assertRefused(String message, org.junit.jupiter.api.function.Executable call) {
        ApiException e = assertThrows(ApiException.class, call);
        assertEquals(400, e.status().getCode());
        assertEquals(List.of(message), e.messages());
    }

    @Test
    void strictRefusesUnknownAndDuplicate() {
        assertRefused("Unknown parameter: colour", () -> QueryParams.of(params("colour=red"), ENFORCING));
        assertRefused("Duplicate parameter: color", () -> QueryParams.of(params("color=red&color=blue"), ENFORCING));
        assertEquals("red", QueryParams.of(params("color=red"), ENFORCING).string("color").orElseThrow());
    }

    /** What a client such as n8n-nodes-hyros writes unencoded (docs/clients.md). */
    static QueryParams raw(String query) {
        return QueryParams.of(params(query), query, LENIENT);
    }

    @Test
    void emailsAndPhonesKeepARawPlusOtherParametersAreFormDecoded() {
        assertEquals("ada+news@example.com", raw("email=ada+news@example.com").string("email").orElseThrow());
        assertEquals("ada+news@example.com", raw("email=ada%2Bnews%40example.com").string("email").orElseThrow());
        assertEquals("ada+news@example.com", raw("email=ada+news@example.com%20").string("email").orElseThrow(), "trimmed");
        assertEquals("+15550001111", raw("email=+15550001111").string("email").orElseThrow());
        assertEquals(List.of("a+b@example.com", "c@example.com"),
                raw("emails=%22a+b@example.com%22,%22c@example.com%22").list("emails"));
        assertEquals(List.of("a+b@example.com", "+15550001111"), raw("emails=\"a+b@example.com\",\"+15550001111\"").list("emails"));
        // a form encoder's ", " between quoted values is a separator, not part of the next value
        assertEquals(List.of("a@example.com", "b@example.com"), raw("emails=%22a%40example.com%22%2C+%22b%40example.com%22").list("emails"));
        assertEquals(List.of("a b@example.com"), raw("emails=a+b@example.com").list("emails"), "unquoted: form decoding");
        assertEquals("first+1@example.com", raw("email=first+1@example.com&email=second@example.com").string("email").orElseThrow());
        assertEquals("light blue", raw("color=light+blue").string("color").orElseThrow(), "+ is a space elsewhere");
        assertEquals("", raw("color=red").string("email").orElse(""), "absent");
    }

    @Test
    void anUndeclaredNameCannotBeRead() {
        assertThrows(IllegalStateException.class, () -> lenient("colour=red").string("colour"));
    }

    @Test
    void lenientTakesTheFirstValueAndIgnoresUnknown() {
        QueryParams q = lenient("color=red&color=blue&colour=green");
        assertEquals("red", q.string("color").orElseThrow());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "\"a\",\"b\"           | a;b",
            "\"a,b\",\"c\"         | a,b;c",
            "a,b                   | a;b",
            "\"a\"                 | a",
            "\" a \" , \"b\"       | a;b",
            "\"\",\"b\"            | b",
    })
    void listForm(String raw, String expected) {
        assertEquals(List.of(expected.split(";")), QueryParams.splitList(raw));
    }

    @Test
    void listMaximum() {
        String fifty = String.join(",", java.util.Collections.nCopies(50, "\"x\""));
        assertEquals(50, lenient(("ids=" + java.net.URLEncoder.encode(fifty, java.nio.charset.StandardCharsets.UTF_8)))
                .list("ids").size());
        assertRefused("The maximum number of ids to be provided is 50",
                () -> lenient(("ids=" + java.net.URLEncoder.encode(fifty + ",\"y\"", java.nio.charset.StandardCharsets.UTF_8)))
                        .list("ids"));
    }

    @Test
    void integerBounds() {
        assertEquals(50, lenient(("")).intInRange("pageSize", 50));
        assertEquals(250, lenient(("pageSize=250")).intInRange("pageSize", 50));
        assertRefused("pageSize must be between 1 and 250", () -> lenient(("pageSize=0")).intInRange("pageSize", 50));
        assertRefused("pageSize must be an integer between 1 and 250",
                () -> lenient(("pageSize=1e3")).intInRange("pageSize", 50));
        assertRefused("pageSize must be an integer between 1 and 250",
                () -> lenient(("pageSize=99999999999999999999")).intInRange("pageSize", 50));
    }

    @Test
    void fixedSetMessageShape() {
        assertRefused("Invalid frequency 'WEEKLY'. Accepted values: DAILY, ONE_TIME",
                () -> FixedSet.require("frequency", "WEEKLY", List.of("DAILY", "ONE_TIME")));
        assertRefused("Invalid frequency 'daily'. Accepted values: DAILY, ONE_TIME",
                () -> FixedSet.require("frequency", "daily", List.of("DAILY", "ONE_TIME")));
        assertRefused("Invalid frequency ''. Accepted values: DAILY, ONE_TIME",
                () -> FixedSet.require("frequency", "", List.of("DAILY", "ONE_TIME")));
        assertEquals("ONE_TIME", FixedSet.requireIgnoreCase("frequency", "one_time", List.of("DAILY", "ONE_TIME")));
    }
}
