package dev.attribution.server.platform;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Spec 7.1 and 7.2: malformed requests of every kind answer a 4xx error envelope, never a 500. */
@MicronautTest(transactional = false)
class ErrorEnvelopeTest extends PlatformTest {

    @ParameterizedTest
    @ValueSource(strings = {"{\"email\":", "{email: 'a@b.c'}", "not json", "{\"email\":\"a@example.com\"} trailing",
            "{\"email\":\"a@example.com\",\"email\":\"b@example.com\"}", "\u0000", "[", "{\"email\":\"a@example.com\",}"})
    void malformedJsonIs400(String body) {
        Acct a = account();
        Response r = post(a.key(), "/api/v1.0/leads", body);
        assertError(r, 400);
        assertTrue(r.message().startsWith("Malformed JSON") || r.message().startsWith("Request body")
                || r.message().equals(dev.attribution.api.JsonBody.INVALID_CHARACTER), r.message());
    }

    /** 002 §7 / issue 22 item 11: an Accept header without JSON was a 500 before the role check; now 406 in the envelope. */
    @ParameterizedTest
    @ValueSource(strings = {"text/html", "application/xml", "text/csv"})
    void acceptWithoutJsonIs406Envelope(String accept) {
        Acct a = account();
        for (String path : new String[]{"/api/v1.0/ad-accounts", "/api/v1.0/attribution?attributionModel=last_click"}) {
            Response r = sendWithHeaders("GET", path, null, Map.of("API-Key", a.key(), "Accept", accept));
            assertError(r, 406);
            assertTrue(r.message().startsWith("Not acceptable: "), r.message());
        }
        // the tracking script answers text/plain, or JSON to a caller accepting only JSON (issue 22 item 18): neither is 406
        Response script = sendWithHeaders("GET", "/api/v1.0/tracking-script", null, Map.of("API-Key", a.key(), "Accept", accept));
        assertError(script, 406);
    }

    /** Issue 29: a Content-Type naming an unknown or malformed charset was a 500 on every write route; now 415. */
    @ParameterizedTest
    @ValueSource(strings = {"bogus", "@@@", "utf-99"})
    void unknownCharsetIs415Envelope(String charset) {
        Acct a = account();
        for (String[] route : new String[][]{{"POST", "/api/v1.0/leads"}, {"POST", "/api/v1.0/orders"}, {"POST", "/api/v1.0/clicks"},
                {"POST", "/api/v1.0/sources"}, {"POST", "/api/v1.0/custom-costs"}, {"PUT", "/api/v1.0/leads?emails=%22a%40example.com%22"}}) {
            Response r = sendWithHeaders(route[0], route[1], "{\"email\":\"a@example.com\"}",
                    Map.of("API-Key", a.key(), "Content-Type", "application/json; charset=" + charset));
            assertError(r, 415, "Unsupported charset: " + charset + ". Send the body as application/json in UTF-8");
        }
    }

    @Test
    void nulCharactersAre400WhereverTheyAppear() {
        Acct a = account();
        String nul = "The request contains an invalid character (NUL)";
        assertError(get(a.key(), "/api/v1.0/requests/%00"), 400, nul);
        assertError(get(a.key(), "/api/v1.0/leads?emails=%00"), 400, nul);
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"firstName\":\"x\\u0000y\"}"), 400, nul);
    }

    @ParameterizedTest
    @ValueSource(strings = {"[]", "\"a@example.com\"", "42", "null", "true"})
    void bodyThatIsNotAnObjectIs400(String body) {
        assertError(post(account().key(), "/api/v1.0/leads", body), 400, "Request body must be a JSON object");
    }

    @Test
    void emptyBodyIs400() {
        Acct a = account();
        assertError(post(a.key(), "/api/v1.0/leads", ""), 400, "Request body is required and must be a JSON object");
        assertError(send(a.key(), "POST", "/api/v1.0/leads", null), 400, "Request body is required and must be a JSON object");
    }

    @Test
    void wrongJsonTypesAre400NamingTheField() {
        Acct a = account();
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":5}"), 400, "email must be a string");
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":{\"x\":1}}"), 400, "email must be a string");
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"tags\":7}"), 400,
                "tags must be a string or an array of strings");
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"tags\":[1,2]}"), 400,
                "tags must be an array of strings");
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"firstName\":1e999999999}"), 400,
                "firstName must be a string");
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"leadIps\":\"1.2.3.4\"}"), 400,
                "leadIps must be an array of strings");
    }

    @Test
    void deeplyNestedAndHugeNumbersAre400() {
        Acct a = account();
        assertError(post(a.key(), "/api/v1.0/leads", "[".repeat(5000) + "]".repeat(5000)), 400);
        assertError(post(a.key(), "/api/v1.0/leads", "{\"email\":\"a@example.com\",\"n\":" + "9".repeat(5000) + "}"), 400);
    }

    @Test
    void oversizedBodyIs413Envelope() {
        Acct a = account();
        String huge = "{\"email\":\"a@example.com\",\"firstName\":\"" + "x".repeat(11 * 1024 * 1024) + "\"}";
        Response r = post(a.key(), "/api/v1.0/leads", huge);
        assertError(r, 413, "Request body is too large");
    }

    @Test
    void longListQueryIsServedAndAnOverlongRequestLineIsA4xxEnvelope() {
        Acct a = account();
        String[] emails = new String[50];
        for (int i = 0; i < emails.length; i++) {
            emails[i] = "someone.with.a.long.address." + i + "@example-company-domain.com";
        }
        Response fifty = get(a.key(), "/api/v1.0/leads?emails=" + list(emails) + "&ids=" + list(emails));
        assertEquals(200, fifty.status(), "two lists of 50 quoted values fit in one request line");
        Response r = get(a.key(), "/api/v1.0/leads?emails=" + "x".repeat(40_000));
        assertTrue(r.status() >= 400 && r.status() < 500, r.status() + " " + r.raw());
        assertError(r, r.status());
    }

    @Test
    void unknownRouteIs404Envelope() {
        Acct a = account();
        assertError(get(a.key(), "/api/v1.0/no-such-thing"), 404, "Not found: GET /api/v1.0/no-such-thing");
        assertError(get(a.key(), "/nowhere"), 404, "Not found: GET /nowhere");
        assertError(get(a.key(), "/api/v2.0/leads"), 404);
    }

    @Test
    void unsupportedMethodIs405Envelope() {
        Acct a = account();
        assertError(send(a.key(), "PATCH", "/api/v1.0/requests/abc", "{}"), 405);
    }

    @Test
    void wrongContentTypeStillReadsTheBody() {
        Acct a = account();
        Response r = sendWithHeaders("POST", "/api/v1.0/leads", null, Map.of("API-Key", a.key(), "Content-Type", "text/plain"));
        assertError(r, 400);
    }

    @Test
    void strictEndpointRejectsUnknownParameter() {
        Acct a = account();
        assertError(get(a.key(), "/api/v1.0/requests/abc?foo=1"), 400, "Unknown parameter: foo");
        assertError(get(a.key(), "/api/v1.0/leads/aggregation?attribute=TAG&atribute=TAG"), 400, "Unknown parameter: atribute");
    }

    @Test
    void strictEndpointRejectsDuplicateParameter() {
        Acct a = account();
        assertError(get(a.key(), "/api/v1.0/leads/aggregation?attribute=TAG&attribute=STAGE"), 400,
                "Duplicate parameter: attribute");
    }

    @Test
    void lenientEndpointIgnoresUnknownAndTakesTheFirstOfRepeatedParameters() {
        Acct a = account();
        write(a.key(), "POST", "/api/v1.0/leads", lead("first@example.com"));
        write(a.key(), "POST", "/api/v1.0/leads", lead("second@example.com"));
        Response r = get(a.key(), "/api/v1.0/leads?emails=" + list("first@example.com") + "&emails=" + list("second@example.com")
                + "&emial=whatever");
        assertEquals(200, r.status(), r.raw());
        assertEquals(1, r.body().get("result").size());
        assertEquals("first@example.com", r.body().get("result").get(0).get("email").asText());
        Response misspelled = get(a.key(), "/api/v1.0/leads?emial=" + list("first@example.com"));
        assertEquals(2, misspelled.body().get("result").size(), "a misspelled filter returns the unfiltered list");
    }

    @Test
    void tooManyListValuesIs400() {
        Acct a = account();
        String[] ids = new String[51];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = "id" + i;
        }
        assertError(get(a.key(), "/api/v1.0/leads?ids=" + list(ids)), 400, "The maximum number of ids to be provided is 50");
    }

    @Test
    void pageSizeOutOfBoundsIs400() {
        Acct a = account();
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=0"), 400);
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=251"), 400);
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=abc"), 400);
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=99999999999999999999"), 400);
        assertEquals(200, get(a.key(), "/api/v1.0/leads?pageSize=250").status());
    }

    @Test
    void invertedAndFutureMonthRangesAre400() {
        Acct a = account();
        assertError(get(a.key(), "/api/v1.0/leads?fromDate=2025-03-02&toDate=2025-03-01"), 400,
                "fromDate cannot be later than toDate");
        assertError(get(a.key(), "/api/v1.0/leads?updatedFromDate=2025-03-01T10:00:01&updatedToDate=2025-03-01T10:00:00"), 400,
                "updatedFromDate cannot be later than updatedToDate");
        assertError(get(a.key(), "/api/v1.0/leads?tagFromDate=2025-03-02&tagToDate=2025-03-01"), 400,
                "tagFromDate cannot be later than tagToDate");
        assertEquals(200, get(a.key(), "/api/v1.0/leads?fromDate=2025-03-01&toDate=2025-03-01").status(),
                "one day: start of day to end of day");
        java.time.LocalDate next = java.time.LocalDate.now(java.time.ZoneId.of("America/New_York")).plusMonths(1).withDayOfMonth(1);
        assertError(get(a.key(), "/api/v1.0/leads?toDate=" + next), 400, "'toDate' cannot be in a future month: " + next);
        java.time.LocalDate endOfMonth = next.minusDays(1);
        assertEquals(200, get(a.key(), "/api/v1.0/leads?toDate=" + endOfMonth).status(), "last day of this month is fine");
    }

    @Test
    void badDatesAre400InvalidDateFormat() {
        Acct a = account();
        for (String bad : new String[]{"2025-13-01", "2025-02-30", "01/02/2025", "2025-03-01T10:00:00-0500", "yesterday",
                "2025-03-01T25:00", "2025-03-01T10:00:00.1234"}) {
            assertError(get(a.key(), "/api/v1.0/leads?fromDate=" + enc(bad)), 400, "Invalid date format.");
        }
    }

    @Test
    void tamperedOrForeignPageIdIs400() {
        Acct a = account();
        for (int i = 0; i < 3; i++) {
            write(a.key(), "POST", "/api/v1.0/leads", lead("page" + i + "@example.com"));
        }
        Response first = get(a.key(), "/api/v1.0/leads?pageSize=2");
        assertEquals(200, first.status(), first.raw());
        assertEquals(2, first.body().get("result").size());
        String token = first.body().get("nextPageId").asText();
        Response second = get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc(token));
        assertEquals(200, second.status(), second.raw());
        assertEquals(1, second.body().get("result").size());
        assertTrue(second.body().get("nextPageId") == null || second.body().get("nextPageId").isNull(), "last page");

        char last = token.charAt(token.length() - 1);
        String tampered = token.substring(0, token.length() - 1) + (last == 'A' ? 'B' : 'A');
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc(tampered)), 400, "Invalid pageId");
        // the signature's last character with its lowest bit flipped: for 32 bytes that bit is padding, so the
        // variant decodes to the same bytes — still not the token issued
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        String padded = token.substring(0, token.length() - 1) + alphabet.charAt(alphabet.indexOf(last) ^ 1);
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc(padded)), 400, "Invalid pageId");
        String forgedPayload = "eyJhIjoiYWNjIn0" + token.substring(token.indexOf('.'));
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc(forgedPayload)), 400, "Invalid pageId");
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=garbage"), 400, "Invalid pageId");
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc("%%%.***")), 400, "Invalid pageId");
        assertError(get(a.key(), "/api/v1.0/leads?pageSize=2&emails=" + list("page") + "&pageId=" + enc(token)), 400,
                "Invalid pageId");
        assertError(get(account().key(), "/api/v1.0/leads?pageSize=2&pageId=" + enc(token)), 400, "Invalid pageId");
    }
}
