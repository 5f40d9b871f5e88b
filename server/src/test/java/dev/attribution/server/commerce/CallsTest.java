package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Calls (spec 4.3, 2.8, 3.2). */
@MicronautTest(transactional = false)
class CallsTest extends ApiTest {

    static final String INVALID_STATE = "Invalid state '%s'. Accepted values: QUALIFIED, UNQUALIFIED, CANCELLED, NO_SHOW";

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    JsonNode call(String json) {
        JsonNode status = write(key, "POST", "/api/v1.0/calls", json);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        assertEquals("CREATE_CALL", status.get("eventType").asText());
        return status.get("result");
    }

    List<String> ids(String query) {
        List<String> out = new ArrayList<>();
        Response r = get(key, "/api/v1.0/calls" + query);
        assertEquals(200, r.status(), r.raw());
        r.body().get("result").forEach(c -> out.add(c.get("id").asText()));
        return out;
    }

    @Test
    void createAnswersTheCallShapeWithStateUnsetWhenOmitted() {
        JsonNode call = call("{\"name\":\"Discovery call\",\"email\":\"caller@example.com\",\"date\":\"2026-01-20T15:00:00Z\",\"qualification\":\"Hot\"}");
        assertTrue(call.get("id").asText().startsWith("cll_"));
        assertEquals("Discovery call", call.get("name").asText());
        assertFalse(call.has("state"), "omitting state leaves it unset");
        assertTrue(call.get("qualified").asBoolean());
        assertEquals("Hot", call.get("qualification").get("name").asText());
        assertEquals("Tue Jan 20 10:00:00 EST 2026", call.get("creationDate").asText());
        assertEquals("caller@example.com", call.get("lead").get("email").asText());
    }

    @Test
    void anInvalidStateIsRefusedWithTheAcceptedList() {
        Response r = post(key, "/api/v1.0/calls", "{\"name\":\"Call\",\"email\":\"s@example.com\",\"state\":\"MAYBE\"}");
        assertEquals(400, r.status());
        assertEquals(String.format(INVALID_STATE, "MAYBE"), r.message());
        Response put = put(key, "/api/v1.0/calls?ids=" + list("x") + "&name=n&state=qualified", null);
        assertEquals(String.format(INVALID_STATE, "qualified"), put.message());
    }

    @Test
    void nameAndEmailAreRequired() {
        assertEquals("Missing required field: name", post(key, "/api/v1.0/calls", "{\"email\":\"a@example.com\"}").message());
        assertEquals("Missing required field: email", post(key, "/api/v1.0/calls", "{\"name\":\"Call\",\"phoneNumbers\":[\"+1555\"]}").message());
        assertEquals("Invalid email: nope", post(key, "/api/v1.0/calls", "{\"name\":\"Call\",\"email\":\"nope\"}").message());
    }

    @Test
    void anExistingExternalIdUpdatesTheCall() {
        JsonNode first = call("{\"name\":\"First name\",\"email\":\"ext@example.com\",\"externalId\":\"cal-1\",\"qualification\":\"Warm\"}");
        JsonNode second = call("{\"name\":\"Second name\",\"email\":\"ext@example.com\",\"externalId\":\"cal-1\",\"state\":\"NO_SHOW\",\"qualification\":\"Cold\"}");
        assertEquals(first.get("id"), second.get("id"));
        assertEquals("Second name", second.get("name").asText());
        assertEquals("NO_SHOW", second.get("state").asText());
        assertFalse(second.get("qualified").asBoolean());
        assertEquals("Cold", second.get("qualification").get("name").asText());
        assertEquals("Warm", second.get("qualification").get("oldName").asText());
        JsonNode deprecated = call("{\"name\":\"Third name\",\"email\":\"ext@example.com\",\"id\":\"cal-1\",\"qualified\":true}");
        assertEquals(first.get("id"), deprecated.get("id"), "deprecated id acts as externalId");
        assertTrue(deprecated.get("qualified").asBoolean());
    }

    @jakarta.inject.Inject
    javax.sql.DataSource dataSource;

    @Test
    void aNewCallRecordsCallAttributedOnce() throws java.sql.SQLException {
        JsonNode c = call("{\"name\":\"Evented\",\"email\":\"evt-call@example.com\",\"externalId\":\"cal-evt\"}");
        call("{\"name\":\"Evented again\",\"email\":\"evt-call@example.com\",\"externalId\":\"cal-evt\"}");
        try (var conn = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             var ps = conn.prepareStatement("SELECT count(*), min(payload->>'name') FROM domain_events WHERE event_type = 'call.attributed' AND subject_id = ?")) {
            ps.setString(1, c.get("id").asText());
            try (var rs = ps.executeQuery()) {
                rs.next();
                assertEquals(1, rs.getInt(1));
                assertEquals("Evented", rs.getString(2), "payload is the call in its GET shape");
            }
        }
    }

    @Test
    void listFilters() {
        String other = newAccount();
        String k = key;
        key = other;
        try {
            JsonNode a = call("{\"name\":\"A\",\"email\":\"fa@example.com\",\"state\":\"QUALIFIED\",\"qualification\":\"Gold\",\"date\":\"2026-01-05T10:00:00Z\"}");
            JsonNode b = call("{\"name\":\"B\",\"email\":\"fb@example.com\",\"state\":\"UNQUALIFIED\",\"date\":\"2026-02-05T10:00:00Z\"}");
            String ida = a.get("id").asText();
            String idb = b.get("id").asText();
            assertEquals(List.of(ida, idb), ids(""));
            assertEquals(List.of(ida), ids("?qualified=true"));
            assertEquals(List.of(idb), ids("?qualified=false"));
            assertEquals(List.of(idb), ids("?emails=" + list("fb@")));
            assertEquals(List.of(ida), ids("?leadIds=" + list(a.get("lead").get("id").asText())));
            assertEquals(List.of(ida), ids("?qualificationStages=" + list("gold")));
            assertEquals(List.of(idb), ids("?fromDate=2026-02-01&toDate=2026-02-28"));
            assertEquals(List.of(ida), ids("?ids=" + list(ida)));
            assertEquals("$a", a.get("tag").asText(), "a call's tag is the product tag of its name");
            assertEquals(List.of(ida), ids("?productTags=a"), "productTags match the call's tag, $ added when omitted");
            assertEquals(List.of(idb), ids("?productTags=" + list("$B")));
            assertEquals(List.of(ida, idb), ids("?unknownFilter=1"), "unknown parameters are ignored on GET /calls");
        } finally {
            key = k;
        }
    }

    @Test
    void putTakesIdsOrExternalIdsNotBoth() {
        JsonNode c = call("{\"name\":\"Putme\",\"email\":\"put@example.com\",\"externalId\":\"cal-put\"}");
        assertEquals("Either ids or externalIds must be provided", put(key, "/api/v1.0/calls?name=x", null).message());
        assertEquals("Provide either ids or externalIds, not both",
                put(key, "/api/v1.0/calls?name=x&ids=" + list("a") + "&externalIds=" + list("b"), null).message());
        assertEquals("Missing required parameter: name", put(key, "/api/v1.0/calls?ids=" + list("a"), null).message());
        JsonNode status = write(key, "PUT", "/api/v1.0/calls?externalIds=" + list("cal-put") + "&name=Renamed&state=CANCELLED&qualification=Lost", null);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        assertEquals("UPDATE_CALL", status.get("eventType").asText());
        JsonNode updated = status.get("result");
        assertTrue(updated.isArray());
        assertEquals(c.get("id"), updated.get(0).get("id"));
        assertEquals("Renamed", updated.get(0).get("name").asText());
        assertEquals("CANCELLED", updated.get(0).get("state").asText());
        JsonNode byId = write(key, "PUT", "/api/v1.0/calls?ids=" + list(c.get("id").asText()) + "&name=Again", null).get("result");
        assertEquals("Again", byId.get(0).get("name").asText());
        assertEquals("CANCELLED", byId.get(0).get("state").asText(), "state kept when not sent");
    }

    @Test
    void deleteRemovesTheCall() {
        JsonNode c = call("{\"name\":\"Gone\",\"email\":\"gone@example.com\"}");
        JsonNode status = write(key, "DELETE", "/api/v1.0/calls/" + c.get("id").asText(), null);
        assertEquals("PROCESSED", status.get("status").asText());
        assertEquals(List.of(), ids("?ids=" + list(c.get("id").asText())));
        assertEquals("Call not found", write(key, "DELETE", "/api/v1.0/calls/" + c.get("id").asText(), null).get("errorMessage").asText());
    }
}
