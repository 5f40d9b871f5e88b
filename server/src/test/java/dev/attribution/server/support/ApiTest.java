package dev.attribution.server.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.AccountDirectory;
import dev.attribution.api.auth.ApiKeys;
import dev.attribution.api.auth.Roles;
import dev.attribution.testing.StackTest;
import io.micronaut.runtime.server.EmbeddedServer;
import jakarta.inject.Inject;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Base of the HTTP tests: the real servers ({@link StackTest}), a plain JDK HTTP client that never throws on
 * 4xx/5xx (tests assert status and envelope), and helpers to make accounts and keys and to wait for async writes.
 * Subclasses are {@code @MicronautTest} classes; each makes its own accounts, so test classes never share rows.
 */
public abstract class ApiTest extends StackTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Inject
    protected EmbeddedServer server;

    @Inject
    protected AccountDirectory directory;

    @Inject
    protected dev.attribution.cdc.CdcStatus cdcStatus;

    @Inject
    protected javax.sql.DataSource ownDataSource;

    /** A status and a parsed body (null when the body is not JSON) and the response headers. */
    public record Response(int status, JsonNode body, String raw, Map<String, java.util.List<String>> headers) {
        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .findFirst().map(e -> e.getValue().get(0)).orElse(null);
        }

        /** The {@code message} array of an error envelope, joined with " | ". */
        public String message() {
            JsonNode m = body == null ? null : body.get("message");
            if (m == null) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            m.forEach(x -> out.append(out.length() == 0 ? "" : " | ").append(x.asText()));
            return out.toString();
        }
    }

    /** {@code r} is a 400 whose error envelope says exactly {@code message}. */
    public static void assertBadRequest(Response r, String message) {
        assertEquals(400, r.status(), r.raw());
        assertEquals(message, r.message(), r.raw());
    }

    /** A new ACTIVE account in {@code zone} with one key holding {@code roles}; returns the key. */
    public String newAccount(String zone, java.util.List<String> roles) {
        return newAccount(zone, roles, false);
    }

    private String newAccount(String zone, java.util.List<String> roles, boolean unthrottled) {
        String accountId = RequestIds.next("acc_");
        directory.createAccount(accountId, "Test " + accountId, null, ZoneId.of(zone), "USD");
        if (unthrottled) {
            directory.setRateOverride(accountId, 100_000, 1_000_000);
        }
        String key = ApiKeys.newKey();
        directory.createKey(accountId, ApiKeys.hash(key), roles, false);
        return key;
    }

    /**
     * A new account whose rate limits are far above the defaults, for tests that fire many quick requests at one
     * endpoint to check something else (validation texts): with cached key lookups they pass 30/s.
     */
    public String newUnthrottledAccount(String zone, java.util.List<String> roles) {
        return newAccount(zone, roles, true);
    }

    /** A new account in America/New_York with every role. */
    public String newAccount() {
        return newAccount("America/New_York", Roles.ALL);
    }

    public Response get(String key, String pathAndQuery) {
        return send(key, "GET", pathAndQuery, null);
    }

    public Response post(String key, String path, String json) {
        return send(key, "POST", path, json);
    }

    public Response put(String key, String path, String json) {
        return send(key, "PUT", path, json);
    }

    public Response delete(String key, String pathAndQuery) {
        return send(key, "DELETE", pathAndQuery, null);
    }

    protected Response send(String key, String method, String pathAndQuery, String json) {
        return sendWithHeaders(method, pathAndQuery, json, key == null ? Map.of() : Map.of("API-Key", key));
    }

    public Response sendWithHeaders(String method, String pathAndQuery, String json, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.getURL() + pathAndQuery))
                .timeout(Duration.ofSeconds(30))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null && headers.keySet().stream().noneMatch("Content-Type"::equalsIgnoreCase)) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        try {
            HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = null;
            try {
                body = r.body().isEmpty() ? null : JsonBody.mapper().readTree(r.body());
            } catch (IOException notJson) {
                // left null: the test sees raw
            }
            return new Response(r.statusCode(), body, r.body(), r.headers().map());
        } catch (IOException e) {
            throw new AssertionError(method + " " + pathAndQuery + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** The list form of spec 4.0, URL-encoded: {@code "a","b"}. */
    public static String list(String... values) {
        return URLEncoder.encode(java.util.Arrays.stream(values).map(v -> '"' + v + '"').collect(Collectors.joining(",")),
                StandardCharsets.UTF_8);
    }

    public static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** Sends a write, asserts it was accepted, waits until its request is PROCESSED or FAILED; returns the status resource. */
    public JsonNode write(String key, String method, String path, String json) {
        Response accepted = send(key, method, path, json);
        if (accepted.status() != 200 || accepted.body() == null || !accepted.body().has("request_id")) {
            throw new AssertionError(method + " " + path + " not accepted: " + accepted.status() + " " + accepted.raw());
        }
        return awaitRequest(key, accepted.body().get("request_id").asText());
    }

    /** {@link #write}, asserting the request was PROCESSED as {@code eventType}; returns its {@code result}. */
    public JsonNode processed(String key, String method, String path, String json, String eventType) {
        JsonNode status = write(key, method, path, json);
        assertEquals("PROCESSED", status.get("status").asText(), status.toString());
        assertEquals(eventType, status.get("eventType").asText());
        return status.get("result");
    }

    /** Sends a write and asserts it was accepted (200 with a request id); returns the request id, not waiting. */
    public String sendWrite(String key, String method, String path, String json) {
        Response r = send(key, method, path, json);
        if (r.status() != 200 || r.body() == null || !r.body().has("request_id")) {
            throw new AssertionError(method + " " + path + " " + json + " not accepted: " + r.status() + " " + r.raw());
        }
        return r.body().get("request_id").asText();
    }

    /**
     * Waits once for many writes sent with {@link #sendWrite}: asserts each PROCESSED; returns their {@code result}s in
     * the order of {@code requestIds}.
     */
    public java.util.List<JsonNode> awaitAllProcessed(String key, java.util.List<String> requestIds) {
        java.util.List<JsonNode> out = new java.util.ArrayList<>();
        for (String id : requestIds) {
            JsonNode status = awaitRequest(key, id);
            assertEquals("PROCESSED", status.get("status").asText(), status.toString());
            out.add(status.get("result"));
        }
        return out;
    }

    /** Waits until the request leaves PENDING; returns its status resource (the {@code result} of the envelope). */
    public JsonNode awaitRequest(String key, String requestId) {
        return await(() -> {
            Response r = get(key, "/api/v1.0/requests/" + requestId);
            if (r.status() == 429) {
                // a poll over the account's rate limit is not an answer: polled again (CI of 6cae080 read the 429's
                // error envelope as the request's status)
                return null;
            }
            JsonNode s = r.body() == null ? null : r.body().get("result");
            return s != null && !"PENDING".equals(s.path("status").asText()) ? s : null;
        });
    }

    /** POST /ad-spend/import of a CSV file (synchronous, docs/ad-spend-import.md); asserts 200, returns its result. */
    public JsonNode importSpend(String key, String csv) {
        Response r = sendWithHeaders("POST", "/api/v1.0/ad-spend/import", csv, Map.of("API-Key", key, "Content-Type", "text/csv"));
        assertEquals(200, r.status(), r.raw());
        return r.body().get("result");
    }

    /** One write of a batch: the key it is sent with, method, path with query, JSON body (null: none). */
    public record WriteRequest(String key, String method, String path, String json) {
    }

    /**
     * Sends the writes of each phase at once, then waits until each has left PENDING and asserts it PROCESSED, phase
     * after phase (a phase may need the one before: an order after the click of its lead, a refund after its order);
     * then waits until ClickHouse holds everything ({@link #awaitCdcCaughtUp}). Returns every write's result, in order.
     */
    protected java.util.List<JsonNode> writePhases(java.util.List<java.util.List<WriteRequest>> phases) {
        java.util.List<JsonNode> results = new java.util.ArrayList<>();
        for (java.util.List<WriteRequest> phase : phases) {
            java.util.List<String> ids = phase.stream().map(w -> sendWrite(w.key(), w.method(), w.path(), w.json())).toList();
            for (int i = 0; i < phase.size(); i++) {
                results.addAll(awaitAllProcessed(phase.get(i).key(), java.util.List.of(ids.get(i))));
            }
        }
        awaitCdcCaughtUp();
        return results;
    }

    /**
     * Waits until the CDC bridge has applied to ClickHouse every change PostgreSQL had committed when this is called
     * (its applied WAL position passes the WAL head read now; heartbeats move it on when idle). Exact, so nothing
     * after it depends on timing; it writes nothing and needs no key.
     */
    public void awaitCdcCaughtUp() {
        long head;
        try (java.sql.Connection c = io.micronaut.data.connection.jdbc.advice.DelegatingDataSource.unwrapDataSource(ownDataSource).getConnection();
             java.sql.Statement s = c.createStatement();
             java.sql.ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn() - '0/0'::pg_lsn")) {
            rs.next();
            head = rs.getLong(1);
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
        Instant deadline = Instant.now().plus(Duration.ofSeconds(180));
        while (cdcStatus.appliedLsn() < head) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("CDC has not reached WAL position " + head + " in 180 s (applied " + cdcStatus.appliedLsn()
                        + ", " + cdcStatus.state() + ")");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
    }

    /** How long {@link #await} polls: a bound against hangs, not a speed check (a loaded 2-core machine is slow). */
    private static final Duration AWAIT_LIMIT = Duration.ofSeconds(120);

    /** Polls {@code probe} every 50 ms until it returns non-null ({@link #AWAIT_LIMIT} at most). */
    public static <T> T await(Supplier<T> probe) {
        Instant deadline = Instant.now().plus(AWAIT_LIMIT);
        Throwable last = null;
        while (Instant.now().isBefore(deadline)) {
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
            } catch (RuntimeException | AssertionError e) {
                last = e;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted");
            }
        }
        throw new AssertionError("condition not met within " + AWAIT_LIMIT.toSeconds() + " s", last);
    }

    /** A money field of a report: null when {@code want} is null, else a JSON number equal to it (scale ignored). */
    public static void money(String want, JsonNode got, String where) {
        if (want == null) {
            org.junit.jupiter.api.Assertions.assertTrue(got != null && got.isNull(), where + ": expected null");
        } else {
            org.junit.jupiter.api.Assertions.assertTrue(got != null && got.isNumber(), where + ": expected " + want);
            assertEquals(0, new java.math.BigDecimal(want).compareTo(got.decimalValue()), where + ": expected " + want);
        }
    }
}
