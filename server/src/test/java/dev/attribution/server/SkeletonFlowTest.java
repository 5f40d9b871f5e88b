package dev.attribution.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.testing.StackTest;
import dev.attribution.testing.TestStack;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The walking skeleton through the real servers: POST /leads → request log → worker → PostgreSQL → GET /leads;
 * PostgreSQL → Debezium (pgoutput) → ClickHouse month partitions → GET /leads/aggregation.
 */
@MicronautTest
class SkeletonFlowTest extends StackTest {

    @Inject
    @Client("/")
    HttpClient http;

    @Inject
    AccountDirectory directory;

    String key;

    @BeforeAll
    void account() {
        key = ApiKeys.newKey();
        directory.createAccount("acc_skeleton", "Skeleton", null, ZoneId.of("America/New_York"), "USD");
        directory.createKey("acc_skeleton", ApiKeys.hash(key), Roles.ALL, false);
    }

    @Test
    void leadFlowsFromWriteToReadToClickHouseAggregation() {
        String body = """
                {"email":"ada@example.com","firstName":"Ada","lastName":"Lovelace","tags":["!webinar","@facebook"]}""";
        JsonNode accepted = json(http.toBlocking().retrieve(HttpRequest.POST("/api/v1.0/leads", body).header("API-Key", key)));
        assertEquals("OK", accepted.get("result").asText());
        String requestId = accepted.get("request_id").asText();

        JsonNode status = await(() -> {
            JsonNode s = get("/api/v1.0/requests/" + requestId).get("result");
            return "PROCESSED".equals(s.get("status").asText()) ? s : null;
        });
        assertEquals("CREATE_LEAD", status.get("eventType").asText());
        assertTrue(status.has("processedAt"));
        assertFalse(status.has("errorMessage"));
        assertEquals("ada@example.com", status.get("result").get("email").asText());

        JsonNode leads = get("/api/v1.0/leads?emails=" + URLEncoder.encode("\"ada@example.com\"", StandardCharsets.UTF_8));
        assertEquals(1, leads.get("result").size());
        JsonNode lead = leads.get("result").get(0);
        assertEquals("Ada", lead.get("firstName").asText());
        assertEquals("[\"!webinar\",\"@facebook\"]", lead.get("tags").toString());
        assertTrue(lead.get("creationDate").asText().matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}-0[45]:00"),
                "creationDate in the account zone with offset: " + lead.get("creationDate"));

        JsonNode aggregation = await(() -> {
            JsonNode r = get("/api/v1.0/leads/aggregation?attribute=TAG").get("result");
            return r.get("groups").size() == 2 ? r : null;
        });
        assertEquals(1, aggregation.get("totalCount").asLong());
        assertEquals(0, aggregation.get("remainingCount").asLong());
        assertEquals("!webinar", aggregation.get("groups").get(0).get("key").asText());

        String partitions = TestStack.get().clickhouse("SELECT DISTINCT partition FROM system.parts WHERE database = '"
                + TestStack.get().clickhouseDatabase() + "' AND table = 'leads' AND active FORMAT TabSeparated");
        assertEquals(java.time.YearMonth.now(java.time.ZoneOffset.UTC).toString().replace("-", ""), partitions.trim());
    }

    private JsonNode get(String path) {
        return json(http.toBlocking().retrieve(HttpRequest.GET(path).header("API-Key", key)));
    }

    private static JsonNode json(String text) {
        try {
            return JsonBody.mapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError("not JSON: " + text, e);
        }
    }

    static <T> T await(Supplier<T> probe) {
        return dev.attribution.server.support.ApiTest.await(probe);
    }
}
