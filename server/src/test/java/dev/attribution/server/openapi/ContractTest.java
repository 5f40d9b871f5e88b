package dev.attribution.server.openapi;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import com.atlassian.oai.validator.report.ValidationReport;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.auth.Roles;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 21 point 3, the contract test: every operation of the served document is called with valid input (the
 * document's own request examples, path ids of what those examples created, the required query parameters) and with
 * invalid input (no key, a malformed body, a malformed required parameter), and every request and response is checked
 * against the served document by openapi-request-validator. 0 violations, and every valid call answers 2xx; every
 * create example is also applied (PROCESSED), since Swagger UI users send those examples as they are.
 */
@MicronautTest(transactional = false)
class ContractTest extends ApiTest {

    /** The creates, in the order their examples depend on one another (the custom cost spreads over the source's tag). */
    private static final List<String> CREATES = List.of("createLead", "createSource", "createProduct", "createCustomCost",
            "createUrlRule", "createWebhookSubscription", "createClick", "createOrder", "createCall", "createSubscription",
            "createCart", "addLeadTags", "importAdSpend", "importEmailEvents", "generateReport");
    /** The ad of the spend-import example: a real ad of the account once that example ran. */
    private static final String AD = "23851234567890201";
    private static final String EMAIL = "ada@example.com";
    /** Values of required query parameters, by name (list parameters in the spec's list form). */
    private static final Map<String, String> REQUIRED = Map.ofEntries(Map.entry("attributionModel", "last_click"),
            Map.entry("startDate", "2026-01-01"), Map.entry("endDate", "2026-01-31"),
            Map.entry("fields", list("sales", "revenue", "cost")), Map.entry("level", "facebook_ad"),
            Map.entry("ids", list(AD)), Map.entry("id", AD), Map.entry("conversionType", "SALE"),
            Map.entry("attribute", "TAG"), Map.entry("name", enc("Discovery call")));
    /** Where an operation's required parameter means something else: the ad account, and ROAS's own levels. */
    private static final Map<String, String> REQUIRED_BY_OPERATION = Map.of(
            "getAdAccountAttributionReport.ids", list("act_1234567890"), "getRoasReport.level", "ad",
            "getMarginalCacCurve.level", "ad");
    /** What some operations need beyond their required parameters to do anything (spec: one selector of the lead). */
    private static final Map<String, String> SELECTORS = Map.of("updateLead", "email=" + enc(EMAIL),
            "deleteLead", "email=" + enc(EMAIL), "getLeadJourney", "emails=" + list(EMAIL),
            "listLeadClicks", "emails=" + list(EMAIL), "updateCalls", "externalIds=" + list("call-1001"));

    private record Op(String method, String path, String id, JsonNode spec) {
        boolean takesBody() {
            return spec.has("requestBody");
        }
    }

    private final List<String> violations = new ArrayList<>();
    private OpenApiInteractionValidator validator;
    private String key;

    @Test
    void everyOperationAnswersAsTheServedDocumentSays() throws Exception {
        String served = OpenApiDocumentTest.served(server.getURL() + "/openapi.json");
        validator = OpenApiInteractionValidator.createForInlineApiSpecification(served).build();
        JsonNode doc = JsonBody.mapper().readTree(served);
        Map<String, Op> ops = new LinkedHashMap<>();
        doc.get("paths").fields().forEachRemaining(p -> p.getValue().fields().forEachRemaining(m ->
                ops.put(m.getValue().get("operationId").asText(),
                        new Op(m.getKey().toUpperCase(), p.getKey(), m.getValue().get("operationId").asText(), m.getValue()))));
        key = newUnthrottledAccount("America/New_York", Roles.ALL);
        Map<String, String> ids = new LinkedHashMap<>();

        List<String> requests = new ArrayList<>();
        for (String id : CREATES) {
            Op op = ops.get(id);
            assertTrue(op != null, "documented: " + id);
            JsonNode answer = call(op, Map.of(), "").body();
            if (answer != null && answer.has("request_id") && answer.path("result").isTextual()
                    && !id.equals("createUrlRule") && !id.equals("generateReport")) {
                requests.add(id + " " + answer.get("request_id").asText());
            }
            if (id.equals("createUrlRule") && answer != null) {
                ids.put("/url-rules/{id}", answer.path("result").asText());
            }
            if (id.equals("createWebhookSubscription") && answer != null) {
                ids.put("/webhook-subscriptions/{externalId}", answer.path("result").path("externalId").asText());
            }
            if (id.equals("generateReport") && answer != null) {
                ids.put("/reports/poll/{externalId}", answer.path("result").path("externalId").asText());
            }
        }
        for (String r : requests) {
            String[] idAndRequest = r.split(" ");
            JsonNode status = awaitRequest(key, idAndRequest[1]);
            if (!"PROCESSED".equals(status.path("status").asText())) {
                violations.add(idAndRequest[0] + ": its documented example was not applied: " + status);
            }
            ids.putIfAbsent("/requests/{requestId}", idAndRequest[1]);
        }
        awaitCdcCaughtUp();
        ids.put("/sources/{tag}", "@newsletter");
        ids.put("/calls/{id}", first("/api/v1.0/calls", "id"));
        ids.put("/custom-costs/{id}", first("/api/v1.0/custom-costs", "id"));
        ids.put("/products/{id}", first("/api/v1.0/products", "id"));
        ids.put("/sales/{id}", first("/api/v1.0/sales", "id"));
        ids.put("/orders/{id}", get(key, "/api/v1.0/sales").body().path("result").path(0).path("orderId").asText());

        for (String method : List.of("GET", "PUT", "DELETE")) {
            for (Op op : ops.values()) {
                if (op.method().equals(method) && !op.id().equals("deleteLead")) {
                    call(op, ids, "");
                }
            }
        }
        call(ops.get("deleteLead"), ids, "");

        for (Op op : ops.values()) {
            expectStatus(op, sendTo(op, ids, null, "", op.takesBody() ? example(op) : null), 401, "without a key");
            if (op.takesBody() && !isFile(op)) {
                expectStatus(op, sendTo(op, ids, key, "", "{\"unclosed\": "), 400, "with a malformed body");
            }
            if (hasRequired(op, "startDate")) {
                expectStatus(op, sendTo(op, ids, key, "", null, "startDate", "yesterday"), 400, "with startDate=yesterday");
            }
        }
        assertTrue(violations.isEmpty(), violations.size() + " contract violations:\n" + String.join("\n", violations));
    }

    /** A valid call: asserts 2xx and a request and response that match the document; returns the response. */
    private Response call(Op op, Map<String, String> ids, String extraQuery) {
        Response r = sendTo(op, ids, key, extraQuery, op.takesBody() ? example(op) : null);
        if (r.status() / 100 != 2) {
            violations.add(op.id() + ": valid input answered " + r.status() + " " + r.raw());
        }
        return r;
    }

    private void expectStatus(Op op, Response r, int status, String what) {
        if (r.status() != status) {
            violations.add(op.id() + " " + what + ": " + r.status() + " instead of " + status + " " + r.raw());
        }
    }

    private Response sendTo(Op op, Map<String, String> ids, String apiKey, String extraQuery, String body, String... replace) {
        String path = op.path();
        for (Map.Entry<String, String> id : ids.entrySet()) {
            if (path.equals(id.getKey())) {
                path = path.replaceAll("\\{[^}]+}", enc(id.getValue()));
            }
        }
        List<String> query = new ArrayList<>();
        for (JsonNode p : op.spec().path("parameters")) {
            if (p.path("required").asBoolean() && "query".equals(p.path("in").asText())) {
                String name = p.get("name").asText();
                String value = replace.length == 2 && replace[0].equals(name) ? replace[1]
                        : REQUIRED_BY_OPERATION.getOrDefault(op.id() + "." + name, REQUIRED.get(name));
                assertTrue(value != null, op.id() + ": a value for its required " + name);
                query.add(name + "=" + value);
            }
        }
        if (SELECTORS.containsKey(op.id())) {
            query.add(SELECTORS.get(op.id()));
        }
        if (!extraQuery.isEmpty()) {
            query.add(extraQuery);
        }
        String pathAndQuery = "/api/v1.0" + path + (query.isEmpty() ? "" : "?" + String.join("&", query));
        Map<String, String> headers = new LinkedHashMap<>();
        if (apiKey != null) {
            headers.put("API-Key", apiKey);
        }
        if (body != null) {
            headers.put("Content-Type", isFile(op) ? "text/csv" : "application/json");
        }
        Response r = sendWithHeaders(op.method(), pathAndQuery, body, headers);
        validate(op, pathAndQuery, headers, body, r, replace.length == 0 && apiKey != null && !"{\"unclosed\": ".equals(body));
        return r;
    }

    /** Checks the response (and, for valid input, the request too) against the served document. */
    private void validate(Op op, String pathAndQuery, Map<String, String> headers, String body, Response r,
                          boolean validInput) {
        SimpleResponse.Builder response = SimpleResponse.Builder.status(r.status());
        r.headers().forEach((name, values) -> response.withHeader(name, values));
        if (!r.raw().isEmpty()) {
            response.withBody(r.raw());
        }
        String path = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?')) : pathAndQuery;
        ValidationReport report;
        if (validInput) {
            SimpleRequest.Builder request = new SimpleRequest.Builder(op.method(), path);
            headers.forEach(request::withHeader);
            if (body != null) {
                request.withBody(body);
            }
            if (pathAndQuery.contains("?")) {
                for (String pair : pathAndQuery.substring(pathAndQuery.indexOf('?') + 1).split("&")) {
                    String[] kv = pair.split("=", 2);
                    request.withQueryParam(kv[0], java.net.URLDecoder.decode(kv[1], java.nio.charset.StandardCharsets.UTF_8));
                }
            }
            report = validator.validate(request.build(), response.build());
        } else {
            report = validator.validateResponse(path, Request.Method.valueOf(op.method()), response.build());
        }
        for (ValidationReport.Message m : report.getMessages()) {
            if (m.getLevel() == ValidationReport.Level.ERROR) {
                violations.add(op.id() + " " + r.status() + ": " + m.getKey() + " " + m.getMessage());
            }
        }
    }

    private static String example(Op op) {
        JsonNode content = op.spec().path("requestBody").path("content");
        JsonNode json = content.path("application/json").path("example");
        if (!json.isMissingNode()) {
            return json.toString();
        }
        JsonNode csv = content.path("text/csv").path("example");
        assertTrue(csv.isTextual(), op.id() + " documents an example request body");
        return csv.asText();
    }

    private static boolean isFile(Op op) {
        return op.spec().path("requestBody").path("content").has("text/csv");
    }

    private static boolean hasRequired(Op op, String name) {
        for (JsonNode p : op.spec().path("parameters")) {
            if (p.path("required").asBoolean() && name.equals(p.path("name").asText())) {
                return true;
            }
        }
        return false;
    }

    private String first(String listPath, String field) {
        JsonNode item = get(key, listPath).body().path("result").path(0);
        assertTrue(item.has(field), listPath + " lists what the examples created");
        return item.get(field).asText();
    }
}
