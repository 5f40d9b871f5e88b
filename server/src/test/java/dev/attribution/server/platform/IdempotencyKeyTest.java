package dev.attribution.server.platform;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The optional Idempotency-Key header of asynchronous writes (issue 29, docs/clients.md "Retrying a write safely"):
 * a retry with the same key and request returns the first request_id and is applied once, another request under a used
 * key is a 400, keys belong to an account. Calls are the example: two POSTs of the same call without a key are two calls.
 */
@MicronautTest(transactional = false)
class IdempotencyKeyTest extends ApiTest {

    private static final String CALL = "{\"name\":\"Demo call\",\"email\":\"%s\"}";

    private Response postCall(String key, String idempotencyKey, String json) {
        return sendWithHeaders("POST", "/api/v1.0/calls", json, idempotencyKey == null ? Map.of("API-Key", key)
                : Map.of("API-Key", key, "Idempotency-Key", idempotencyKey));
    }

    /** The calls of {@code email} once every write of it so far is applied (a lead write on its lane, awaited). */
    private int calls(String key, String email) {
        write(key, "POST", "/api/v1.0/leads", "{\"email\":\"" + email + "\"}");
        return get(key, "/api/v1.0/calls?emails=" + list(email)).body().get("result").size();
    }

    @Test
    void aRetryWithTheSameKeyAndRequestIsTheSameWriteAppliedOnce() {
        String key = newAccount();
        String body = CALL.formatted("retry@idem.test");
        Response first = postCall(key, "call-1", body);
        Response retry = postCall(key, "call-1", body);
        assertEquals(200, first.status(), first.raw());
        assertEquals(200, retry.status(), retry.raw());
        String id = first.body().get("request_id").asText();
        assertEquals(id, retry.body().get("request_id").asText(), "the retry answers the first request_id");
        assertEquals("PROCESSED", awaitRequest(key, id).get("status").asText());
        assertEquals(id, postCall(key, "call-1", body).body().get("request_id").asText(), "also once it is applied");
        assertEquals(1, calls(key, "retry@idem.test"), "applied once");

        postCall(key, null, body);
        postCall(key, null, body);
        assertEquals(3, calls(key, "retry@idem.test"), "without a key each POST is a new call");
    }

    @Test
    void concurrentRetriesOfOneKeyGetOneRequestId() {
        String key = newAccount();
        String body = CALL.formatted("race@idem.test");
        List<CompletableFuture<Response>> sent = IntStream.range(0, 8)
                .mapToObj(i -> CompletableFuture.supplyAsync(() -> postCall(key, "race", body))).toList();
        Set<String> ids = new HashSet<>();
        for (CompletableFuture<Response> r : sent) {
            Response response = r.join();
            assertEquals(200, response.status(), response.raw());
            ids.add(response.body().get("request_id").asText());
        }
        assertEquals(1, ids.size(), "one request for eight concurrent sends: " + ids);
        assertEquals(1, calls(key, "race@idem.test"));
    }

    @Test
    void aUsedKeyOnAnotherRequestIsRefused() {
        String key = newAccount();
        String id = postCall(key, "order-7", CALL.formatted("a@idem.test")).body().get("request_id").asText();
        Response other = postCall(key, "order-7", CALL.formatted("b@idem.test"));
        assertEquals(400, other.status(), other.raw());
        assertEquals("Idempotency-Key order-7 was already used for a different request; send a new key for a new write,"
                + " or the same request to retry it", other.message());
        assertEquals(false, other.body().has("request_id"));

        Response otherRoute = sendWithHeaders("POST", "/api/v1.0/leads", CALL.formatted("a@idem.test"),
                Map.of("API-Key", key, "Idempotency-Key", "order-7"));
        assertEquals(400, otherRoute.status(), "the same body on another route is another request: " + otherRoute.raw());
        assertEquals("PROCESSED", awaitRequest(key, id).get("status").asText());
        assertEquals(0, calls(key, "b@idem.test"));
    }

    @Test
    void keysBelongToAnAccount() {
        String a = newAccount();
        String b = newAccount();
        String body = CALL.formatted("shared@idem.test");
        String first = postCall(a, "k", body).body().get("request_id").asText();
        String second = postCall(b, "k", body).body().get("request_id").asText();
        assertNotEquals(first, second);
        assertEquals(1, calls(a, "shared@idem.test"));
        assertEquals(1, calls(b, "shared@idem.test"));
    }

    @Test
    void refundsAndSourcesTakeKeysToo() {
        String key = newAccount();
        processed(key, "POST", "/api/v1.0/orders", """
                {"email":"refund@idem.test","orderId":"idem-o1","items":[{"name":"Widget","price":40.00,"quantity":1}]}""",
                "CREATE_ORDER");
        Map<String, String> headers = Map.of("API-Key", key, "Idempotency-Key", "refund-1");
        Response refund = sendWithHeaders("DELETE", "/api/v1.0/orders/idem-o1?refundedAmount=10", null, headers);
        Response again = sendWithHeaders("DELETE", "/api/v1.0/orders/idem-o1?refundedAmount=10", null, headers);
        assertEquals(refund.body().get("request_id").asText(), again.body().get("request_id").asText());
        Response more = sendWithHeaders("DELETE", "/api/v1.0/orders/idem-o1?refundedAmount=20", null, headers);
        assertEquals(400, more.status(), "another amount is another request: " + more.raw());

        Map<String, String> source = Map.of("API-Key", key, "Idempotency-Key", "source-1");
        String body = "{\"name\":\"Idem source\",\"integrationType\":\"FACEBOOK\",\"adSourceId\":\"idem-set\",\"accountId\":\"act_idem\",\"campaignId\":\"c_idem\"}";
        Response created = sendWithHeaders("POST", "/api/v1.0/sources", body, source);
        assertEquals(200, created.status(), created.raw());
        assertEquals(created.body().get("request_id").asText(),
                sendWithHeaders("POST", "/api/v1.0/sources", body, source).body().get("request_id").asText(),
                "a write answered on the request's own thread (sources, products, custom costs, erasure) takes keys too");
    }

    @Test
    void malformedKeysAreRefusedBeforeAnythingIsWritten() {
        String key = newAccount();
        List<String> bad = new ArrayList<>(List.of("", "with space", "x".repeat(256)));
        for (String k : bad) {
            Response r = postCall(key, k, CALL.formatted("bad@idem.test"));
            assertEquals(400, r.status(), "key [" + k + "]: " + r.raw());
            assertEquals("Idempotency-Key must be 1 to 255 visible ASCII characters", r.message());
        }
        assertEquals(200, postCall(key, "x".repeat(255), CALL.formatted("bad@idem.test")).status());
        assertEquals(1, calls(key, "bad@idem.test"));
    }
}
