package dev.attribution.server.commerce;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Subscriptions (spec 2.9, 2.4, 4.13): statuses, legacy dates, category at the first paid sale, events. */
@MicronautTest(transactional = false)
class SubscriptionsTest extends ApiTest {

    static final String WRITE_STATUSES = "ACTIVE, TRIALING, CANCELED, PAST_DUE, INCOMPLETE, INCOMPLETE_EXPIRED, UNPAID, COMPLETED, PAUSED";

    @Inject
    DataSource dataSource;

    String key;

    @BeforeAll
    void account() {
        key = newAccount();
    }

    JsonNode subscription(String json) {
        return processed(key, "POST", "/api/v1.0/subscriptions", json, "CREATE_SUBSCRIPTION");
    }

    @Test
    void createAnswersTheSubscriptionShape() throws SQLException {
        JsonNode s = subscription("{\"email\":\"sub@example.com\",\"status\":\"TRIALING\",\"startDate\":\"2026-01-10T12:00:00Z\","
                + "\"trialStartDate\":\"2026-01-10T12:00:00Z\",\"trialEndDate\":\"2026-01-24T12:00:00Z\",\"price\":29.99,"
                + "\"periodicity\":\"MONTH\",\"name\":\"Gold Plan\",\"planId\":\"plan_gold\",\"subscriptionId\":\"ext-sub-1\"}");
        assertTrue(s.get("id").asText().startsWith("sub_"));
        assertEquals("TRIALING", s.get("status").asText());
        assertEquals("Sat Jan 10 07:00:00 EST 2026", s.get("startDate").asText());
        assertEquals("Sat Jan 24 07:00:00 EST 2026", s.get("trialEndDate").asText());
        assertTrue(s.get("lastUpdatedDate").asText().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}-0[45]:00"));
        assertEquals("#gold-plan", s.get("tag").asText());
        assertEquals("plan_gold", s.get("planId").asText());
        Money.assertAmount("29.99", s.get("price"));
        assertTrue(s.has("category") && s.get("category").isNull(), "category null until a paid sale");
        assertEquals("sub@example.com", s.get("lead").get("email").asText());
        assertEquals(1, events("subscription.created", s.get("id").asText()));
    }

    @Test
    void unknownIsRefusedOnWritesButAcceptedOnReads() {
        Response r = post(key, "/api/v1.0/subscriptions", "{\"email\":\"u@example.com\",\"status\":\"UNKNOWN\",\"startDate\":\"2026-01-01\",\"price\":1,\"periodicity\":\"MONTH\"}");
        assertEquals(400, r.status());
        assertEquals("Invalid status 'UNKNOWN'. Accepted values: " + WRITE_STATUSES, r.message());
        assertEquals("Invalid status 'UNKNOWN'. Accepted values: " + WRITE_STATUSES,
                put(key, "/api/v1.0/subscriptions", "{\"ids\":[\"x\"],\"status\":\"UNKNOWN\"}").message());
        assertEquals(200, get(key, "/api/v1.0/subscriptions?status=UNKNOWN").status());
        assertEquals("Invalid status 'GONE'. Accepted values: " + WRITE_STATUSES + ", UNKNOWN",
                get(key, "/api/v1.0/subscriptions?status=GONE").message());
    }

    @Test
    void requiredFieldsAndRules() {
        String base = "\"email\":\"r@example.com\",\"startDate\":\"2026-01-01\",\"price\":1,\"periodicity\":\"MONTH\",\"status\":\"ACTIVE\"";
        assertEquals("Missing required field: status", post(key, "/api/v1.0/subscriptions", "{" + base.replace(",\"status\":\"ACTIVE\"", "") + "}").message());
        assertEquals("Missing required field: startDate", post(key, "/api/v1.0/subscriptions", "{" + base.replace("\"startDate\":\"2026-01-01\",", "") + "}").message());
        assertEquals("Missing required field: price", post(key, "/api/v1.0/subscriptions", "{" + base.replace("\"price\":1,", "") + "}").message());
        assertEquals("Invalid periodicity 'FORTNIGHT'. Accepted values: DAY, WEEK, MONTH, QUARTER, YEAR, or DAILY, DAYS, WEEKLY, "
                        + "WEEKS, MONTHLY, MONTHS, QUARTERLY, QUARTERS, YEARLY, YEARS, ANNUAL, ANNUALLY (any case)",
                post(key, "/api/v1.0/subscriptions", "{" + base.replace("MONTH", "FORTNIGHT") + "}").message());
        assertEquals("Either email or phoneNumbers must be provided",
                post(key, "/api/v1.0/subscriptions", "{" + base.replace("\"email\":\"r@example.com\",", "") + "}").message());
        assertEquals("trialStartDate cannot be later than trialEndDate", post(key, "/api/v1.0/subscriptions",
                "{" + base + ",\"trialStartDate\":\"2026-02-01\",\"trialEndDate\":\"2026-01-01\"}").message());
        assertEquals("Missing required field: ids", put(key, "/api/v1.0/subscriptions", "{\"status\":\"ACTIVE\"}").message());
        assertEquals("cancelAtDate is required when status is CANCELED",
                put(key, "/api/v1.0/subscriptions", "{\"ids\":[\"x\"],\"status\":\"CANCELED\"}").message());
    }

    @Test
    void putChangesStatusAndRecordsTheEvent() throws SQLException {
        JsonNode s = subscription("{\"email\":\"put-sub@example.com\",\"status\":\"ACTIVE\",\"startDate\":\"2026-01-01\",\"price\":10,\"periodicity\":\"YEAR\"}");
        String id = s.get("id").asText();
        JsonNode updated = processed(key, "PUT", "/api/v1.0/subscriptions", "{\"ids\":[\"" + id + "\"],\"status\":\"CANCELED\",\"cancelAtDate\":\"2026-03-01T00:00:00Z\",\"price\":12}", "UPDATE_SUBSCRIPTION");
        assertTrue(updated.isArray());
        assertEquals("CANCELED", updated.get(0).get("status").asText());
        assertEquals("Sat Feb 28 19:00:00 EST 2026", updated.get(0).get("cancelAtDate").asText());
        Money.assertAmount("12", updated.get(0).get("price"));
        assertEquals(1, events("subscription.status.changed", id));
        assertEquals(List.of(id), ids("?status=" + list("CANCELED")));
        assertEquals(List.of(id), ids("?subscriptionStates=CANCELED&emails=" + list("put-sub")));
        JsonNode missing = write(key, "PUT", "/api/v1.0/subscriptions", "{\"ids\":[\"sub_none\"],\"status\":\"ACTIVE\"}");
        assertEquals("Subscription not found", missing.get("errorMessage").asText());
    }

    @Test
    void categoryIsSetAtTheFirstPaidSaleAndNeverAfter() {
        JsonNode s = subscription("{\"email\":\"cat@example.com\",\"status\":\"TRIALING\",\"startDate\":\"2026-01-01\",\"price\":10,"
                + "\"periodicity\":\"MONTH\",\"subscriptionId\":\"ext-cat\"}");
        String id = s.get("id").asText();
        order("{\"email\":\"cat@example.com\",\"externalSubscriptionId\":\"ext-cat\",\"items\":[{\"name\":\"Trial Start\",\"price\":0,\"categoryName\":\"Trials\"}]}");
        assertTrue(one(id).get("category").isNull(), "a free sale does not set the category");
        order("{\"email\":\"cat@example.com\",\"externalSubscriptionId\":\"ext-cat\",\"items\":[{\"name\":\"First Month\",\"price\":10,\"categoryName\":\"Memberships\"}]}");
        assertEquals("Memberships", one(id).get("category").get("name").asText());
        order("{\"email\":\"cat@example.com\",\"externalSubscriptionId\":\"ext-cat\",\"items\":[{\"name\":\"Upgrade\",\"price\":20,\"categoryName\":\"Premium\"}]}");
        assertEquals("Memberships", one(id).get("category").get("name").asText(), "never updated after");
    }

    @Test
    void listFiltersByDatesAndUpdatedDates() {
        String other = newAccount();
        String saved = key;
        key = other;
        try {
            JsonNode a = subscription("{\"email\":\"d1@example.com\",\"status\":\"ACTIVE\",\"startDate\":\"2026-01-05\",\"price\":1,\"periodicity\":\"MONTH\"}");
            JsonNode b = subscription("{\"email\":\"d2@example.com\",\"status\":\"ACTIVE\",\"startDate\":\"2026-02-05\",\"price\":1,\"periodicity\":\"MONTH\"}");
            assertEquals(List.of(b.get("id").asText()), ids("?fromDate=2026-02-01&toDate=2026-02-28"));
            assertEquals(List.of(a.get("id").asText(), b.get("id").asText()), ids("?updatedFromDate=2026-01-01"));
            assertEquals("updatedFromDate cannot be later than updatedToDate",
                    get(key, "/api/v1.0/subscriptions?updatedFromDate=2026-02-01&updatedToDate=2026-01-01").message());
            JsonNode page = get(key, "/api/v1.0/subscriptions?pageSize=1").body();
            assertEquals(1, page.get("result").size());
            assertTrue(page.get("nextPageId").isTextual());
        } finally {
            key = saved;
        }
    }

    private void order(String json) {
        assertEquals("PROCESSED", write(key, "POST", "/api/v1.0/orders", json).get("status").asText());
    }

    private JsonNode one(String id) {
        return get(key, "/api/v1.0/subscriptions?ids=" + list(id)).body().get("result").get(0);
    }

    private List<String> ids(String query) {
        List<String> out = new ArrayList<>();
        Response r = get(key, "/api/v1.0/subscriptions" + query);
        assertEquals(200, r.status(), r.raw());
        r.body().get("result").forEach(s -> out.add(s.get("id").asText()));
        return out;
    }

    private int events(String type, String subject) throws SQLException {
        try (Connection c = DelegatingDataSource.unwrapDataSource(dataSource).getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM domain_events WHERE event_type = ? AND subject_id = ?")) {
            ps.setString(1, type);
            ps.setString(2, subject);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
