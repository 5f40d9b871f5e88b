package dev.attribution.server.marketing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.testing.TestStack;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Custom costs (spec 4.10, 2.14, 2.2.8): wall-clock dates, frequencies, overlap filter, full replacement, strictness. */
@MicronautTest(transactional = false)
class CustomCostsApiTest extends AccountApiTest {

    static final String PATH = "/api/v1.0/custom-costs";
    JsonNode created(String json) {
        return created(PATH, "CREATE_CUSTOM_COST", json);
    }

    @Test
    void offsetIsDiscardedNotConverted() {
        JsonNode c = created("""
                {"name":"Agency","startDate":"2026-03-01T09:30:00-05:00","endDate":"2026-03-31T18:00:00+02:00","frequency":"DAILY","cost":12.5,"tags":["@fb"]}""");
        assertEquals("2026-03-01T09:30:00", c.get("startDate").asText());
        assertEquals("2026-03-31T18:00:00", c.get("endDate").asText());
        assertEquals("DAILY", c.get("frequency").asText());
        assertEquals(12.5, c.get("cost").asDouble());
        assertEquals("[\"@fb\"]", c.get("tags").toString());
        assertTrue(c.get("id").asText().startsWith("cc_"));
    }

    @Test
    void dateWithoutTimeIsStartOfDayAndOneTimeEndsAtItsStart() {
        JsonNode c = created("""
                {"startDate":"2026-04-02","endDate":"2026-05-01","frequency":"ONE_TIME","cost":99,"tags":["fb"]}""");
        assertEquals("2026-04-02T00:00:00", c.get("startDate").asText());
        assertEquals("2026-04-02T00:00:00", c.get("endDate").asText());
        assertEquals("[\"@fb\"]", c.get("tags").toString(), "@ is added to a bare source tag");
        assertTrue(c.get("name").isNull());
    }

    @Test
    void openEndedDailyCostHasNullEndDate() {
        assertTrue(created("{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}").get("endDate").isNull());
    }

    @Test
    void frequencyIsAFixedSetOfTwo() {
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"MONTHLY\",\"cost\":1,\"tags\":[\"@a\"]}"),
                "Invalid frequency 'MONTHLY'. Accepted values: DAILY, ONE_TIME");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"weekly\",\"cost\":1,\"tags\":[\"@a\"]}"),
                "Invalid frequency 'weekly'. Accepted values: DAILY, ONE_TIME");
    }

    @Test
    void requiredFields() {
        assertError(post(key, PATH, "{\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}"), "Missing required field: startDate");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"cost\":1,\"tags\":[\"@a\"]}"), "Missing required field: frequency");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"tags\":[\"@a\"]}"), "Missing required field: cost");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1}"), "Missing required field: tags");
    }

    @Test
    void costMustBePositive() {
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":0,\"tags\":[\"@a\"]}"), "cost must be greater than 0");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":\"5\",\"tags\":[\"@a\"]}"), "cost must be a number");
    }

    @Test
    void atMostTenSourceTags() {
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]}"),
                "The maximum number of tags to be provided is 10");
        assertError(post(key, PATH, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"$sale\"]}"),
                "Invalid tag: $sale. Custom costs take source tags (@)");
    }

    @Test
    void badDatesAreRefused() {
        assertError(post(key, PATH, "{\"startDate\":\"01/02/2026\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}"), "Invalid date format.");
        assertError(post(key, PATH, "{\"startDate\":\"2026-02-01\",\"endDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}"),
                "'endDate' cannot be before 'startDate'");
    }

    @Test
    void overlapFilter() {
        key = newAccount("UTC", dev.attribution.api.auth.Roles.ALL);
        created("{\"name\":\"jan\",\"startDate\":\"2026-01-01\",\"endDate\":\"2026-01-31\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}");
        created("{\"name\":\"open\",\"startDate\":\"2026-02-15\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}");
        created("{\"name\":\"once\",\"startDate\":\"2026-03-10T12:00:00\",\"frequency\":\"ONE_TIME\",\"cost\":1,\"tags\":[\"@a\"]}");
        assertEquals("[\"jan\"]", names(get(key, PATH + "?fromDate=2026-01-10&toDate=2026-01-20")));
        assertEquals("[\"jan\"]", names(get(key, PATH + "?toDate=2026-02-01")));
        assertEquals("[\"open\",\"once\"]", names(get(key, PATH + "?fromDate=2026-03-10")));
        assertEquals("[\"open\"]", names(get(key, PATH + "?fromDate=2026-03-11")));
        assertEquals("[]", names(get(key, PATH + "?fromDate=2026-02-01&toDate=2026-02-14")));
    }

    @Test
    void filterBoundsAreReadInTheAccountZoneSoTheWindowReachesIntoTheNextDay() {
        created("{\"name\":\"open\",\"startDate\":\"2026-02-15T03:00:00\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}");
        // account in America/New_York: toDate 2026-02-14 ends at 2026-02-15T04:59:59Z, past the 03:00 wall clock
        assertEquals("[\"open\"]", names(get(key, PATH + "?toDate=2026-02-14")));
        assertEquals("[]", names(get(key, PATH + "?toDate=2026-02-14T21:59:59-05:00")));
    }

    @Test
    void listIsStrictAndChecksRanges() {
        assertError(get(key, PATH + "?frequency=DAILY"), "Unknown parameter: frequency");
        assertError(get(key, PATH + "?pageSize=1&pageSize=2"), "Duplicate parameter: pageSize");
        assertError(get(key, PATH + "?fromDate=2026-02-01&toDate=2026-01-01"), "fromDate cannot be later than toDate");
        String future = java.time.LocalDate.now().plusMonths(2).withDayOfMonth(1).toString();
        assertError(get(key, PATH + "?toDate=" + future), "'toDate' cannot be in a future month: " + future);
    }

    @Test
    void putIsAFullReplacement() {
        String id = created("{\"name\":\"n\",\"startDate\":\"2026-01-01\",\"endDate\":\"2026-01-31\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}")
                .get("id").asText();
        JsonNode status = write(key, "PUT", PATH + "/" + id, "{\"startDate\":\"2026-02-01\",\"frequency\":\"DAILY\",\"cost\":3,\"tags\":[\"@b\"]}");
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        JsonNode c = get(key, PATH + "?ids=" + list(id)).body().get("result").get(0);
        assertTrue(c.get("name").isNull(), "omitted optional fields are cleared");
        assertTrue(c.get("endDate").isNull());
        assertEquals(3, c.get("cost").asInt());
        assertEquals("[\"@b\"]", c.get("tags").toString());
    }

    @Test
    void putAndDeleteAreStrict() {
        String id = created("{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}").get("id").asText();
        assertError(put(key, PATH + "/" + id, "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"],\"x\":1}"), "Unknown field: x");
        assertError(put(key, PATH + "/" + id + "?y=1", "{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}"), "Unknown parameter: y");
        assertError(put(key, PATH + "/" + id, "{\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}"), "Missing required field: startDate");
        assertError(delete(key, PATH + "/" + id + "?y=1"), "Unknown parameter: y");
        // an unknown id is judged when the write is applied, as on every asynchronous write (docs/clients.md)
        JsonNode missing = write(key, "DELETE", PATH + "/cc_missing", null);
        assertEquals("FAILED", missing.get("status").asText(), missing.toString());
        assertEquals("Custom cost not found", missing.get("errorMessage").asText());
    }

    @Test
    void monthlyIsReadableButOnlyEditableByChangingFrequency() throws Exception {
        String id = created("{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}").get("id").asText();
        try (Connection c = TestStack.get().connect(); Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE custom_costs SET frequency = 'MONTHLY' WHERE id = '" + id + "'");
        }
        assertEquals("MONTHLY", get(key, PATH + "?ids=" + list(id)).body().get("result").get(0).get("frequency").asText());
        assertError(put(key, PATH + "/" + id, "{\"startDate\":\"2026-01-01\",\"frequency\":\"MONTHLY\",\"cost\":1,\"tags\":[\"@a\"]}"),
                "Invalid frequency 'MONTHLY'. Accepted values: DAILY, ONE_TIME");
        assertEquals("PROCESSED", write(key, "PUT", PATH + "/" + id,
                "{\"startDate\":\"2026-01-01\",\"frequency\":\"ONE_TIME\",\"cost\":1,\"tags\":[\"@a\"]}").get("status").asText());
        assertEquals("ONE_TIME", get(key, PATH + "?ids=" + list(id)).body().get("result").get(0).get("frequency").asText());
    }

    @Test
    void deleteRemovesTheCost() {
        String id = created("{\"startDate\":\"2026-01-01\",\"frequency\":\"DAILY\",\"cost\":1,\"tags\":[\"@a\"]}").get("id").asText();
        assertEquals("PROCESSED", write(key, "DELETE", PATH + "/" + id, null).get("status").asText());
        assertEquals(0, get(key, PATH + "?ids=" + list(id)).body().get("result").size());
    }

    private static String names(Response r) {
        StringBuilder b = new StringBuilder("[");
        r.body().get("result").forEach(c -> b.append(b.length() > 1 ? "," : "").append('"').append(c.get("name").asText()).append('"'));
        return b.append("]").toString();
    }
}
