package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The error side of the document (spec 7.1 and 8.1): the error envelope, one shared response per status with its
 * headers, and the rate-limit headers every authenticated response carries; 503 when a store is down.
 */
final class OpenApiErrors {

    /** Status → component name; every operation can answer each of them. */
    static final Map<String, String> RESPONSES = new LinkedHashMap<>();

    static {
        RESPONSES.put("400", "BadRequest");
        RESPONSES.put("401", "Unauthorized");
        RESPONSES.put("403", "Forbidden");
        RESPONSES.put("404", "NotFound");
        RESPONSES.put("413", "PayloadTooLarge");
        RESPONSES.put("429", "TooManyRequests");
        RESPONSES.put("503", "ServiceUnavailable");
    }

    private static final Map<String, String> DESCRIPTIONS = Map.of(
            "BadRequest", "Invalid input: a parameter, a body field, a date, a list or JSON that is malformed; the "
                    + "messages say which.",
            "Unauthorized", "The API-Key header is missing, unknown, revoked, or its account is inactive.",
            "Forbidden", "The key's role does not allow this operation, or the Accessible-Account-Id is not a connected "
                    + "client account.",
            "NotFound", "No such resource (or no such path).",
            "PayloadTooLarge", "The body (10 MiB) or the request line (32 KiB) is too long.",
            "TooManyRequests", "The account's rate limit for this endpoint is used up; retry after Retry-After seconds.",
            "UnsupportedMediaType", "The body is not sent as JSON (or, for file imports, as text).",
            "ServiceUnavailable", "PostgreSQL or ClickHouse cannot be reached, or (a write) the node is at capacity; "
                    + "nothing was accepted: retry after Retry-After seconds (docs/clients.md \"When a store is down\", "
                    + "\"When a node is at capacity\").");

    /** One real answer per shared response, shown as its example (Swagger UI, generated clients' docs). */
    private static final Map<String, String> EXAMPLES = Map.of(
            "BadRequest", "Unknown parameter: q",
            "Unauthorized", dev.attribution.api.ApiException.unauthorized().messages().get(0),
            "Forbidden", "Forbidden, missing api key roles",
            "NotFound", "Not found: GET /api/v1.0/no-such-path",
            "PayloadTooLarge", "Request body is too large",
            "TooManyRequests", "The limit of API requests was reached. Wait 1 second(s) before sending again.",
            "UnsupportedMediaType", "Content-Type must be application/json",
            "ServiceUnavailable", "Service unavailable: PostgreSQL cannot be reached; retry after 5 seconds");

    private OpenApiErrors() {
    }

    /** The {@code Error} schema, the shared responses and the rate-limit headers, into {@code components}. */
    static void addTo(ObjectNode components) {
        ObjectNode error = ((ObjectNode) components.get("schemas")).putObject("Error").put("type", "object")
                .put("description", "The error envelope of every 4xx answer (spec 7.1).");
        error.putArray("required").add("result").add("message");
        ObjectNode props = error.putObject("properties");
        props.putObject("result").put("type", "string").putArray("enum").add("ERROR");
        props.putObject("message").put("type", "array").put("description", "one or more human-readable messages")
                .putObject("items").put("type", "string");

        ObjectNode headers = components.putObject("headers");
        headers.putObject("X-RateLimit-Limit").put("description", "The account's limits for this endpoint and method, "
                + "e.g. `30;w=1, 1000;w=60` (per second and per minute).").putObject("schema").put("type", "string");
        headers.putObject("X-RateLimit-Remaining").put("description", "Requests left in the tightest window.")
                .putObject("schema").put("type", "integer");
        headers.putObject("X-RateLimit-Reset").put("description", "When the tightest window refills, in epoch seconds.")
                .putObject("schema").put("type", "integer");
        headers.putObject("Retry-After").put("description", "Seconds to wait before retrying (at least 1).")
                .putObject("schema").put("type", "integer").put("minimum", 1);

        ObjectNode responses = components.putObject("responses");
        for (String name : DESCRIPTIONS.keySet().stream().sorted().toList()) {
            ObjectNode r = responses.putObject(name).put("description", DESCRIPTIONS.get(name));
            if (!name.equals("Unauthorized")) {
                rateHeaders(r.putObject("headers"));
            }
            if (name.equals("TooManyRequests") || name.equals("ServiceUnavailable")) {
                ((ObjectNode) r.get("headers")).putObject("Retry-After").put("$ref", "#/components/headers/Retry-After");
            }
            ObjectNode json = r.putObject("content").putObject("application/json");
            json.putObject("schema").put("$ref", "#/components/schemas/Error");
            json.putObject("example").put("result", "ERROR").putArray("message").add(EXAMPLES.get(name));
        }
    }

    /** The three {@code X-RateLimit-*} headers as references, into a response's {@code headers}. */
    static void rateHeaders(ObjectNode headers) {
        for (String h : new String[]{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"}) {
            headers.putObject(h).put("$ref", "#/components/headers/" + h);
        }
    }
}
