package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParameter;
import dev.attribution.server.mcp.ApiOperation;
import dev.attribution.server.mcp.ApiOperations;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The served OpenAPI document (issue 21 point 1) against the declarations the server validates with: every
 * operation, its declared query parameters (required, enum, bounds), its body record's fields, the error responses,
 * the API-Key scheme, servers, operationIds and tags; and no internal binding object ({@code q}, {@code caller},
 * {@code *}{@code /*}) anywhere.
 */
@MicronautTest(transactional = false)
class OpenApiDocumentTest extends ApiTest {

    @Inject
    ApiOperations operations;

    private JsonNode document() {
        try {
            return JsonBody.mapper().readTree(served(server.getURL() + "/openapi.json"));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The document as served, waiting as long as its first build takes (it is built on the first request, which on a
     * loaded test machine has taken more than ApiTest's 30 s).
     */
    static String served(String url) {
        try {
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(java.time.Duration.ofMinutes(5)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), r.body());
            return r.body();
        } catch (java.io.IOException e) {
            throw new AssertionError(url, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(url, e);
        }
    }

    private static JsonNode operation(JsonNode doc, ApiOperation op) {
        String relative = op.path().substring(ApiOperation.PREFIX.length()).replaceAll("\\{([^}/?:]+)[^}]*}", "{$1}");
        JsonNode o = doc.path("paths").path(relative).path(op.method().toLowerCase());
        assertFalse(o.isMissingNode(), "documented: " + op.httpLine());
        return o;
    }

    @Test
    void servedWithoutAKeyAsJsonYamlAndWhereSwaggerUiLoadsIt() {
        JsonNode json = document();
        Response yml = get(null, "/openapi.yml");
        assertEquals(200, yml.status());
        Response ui = get(null, "/swagger/attribution-api-1.44.yml");
        assertEquals(200, ui.status());
        assertEquals("", firstDifference("", json, JsonBody.mapper().valueToTree(new Yaml().load(yml.raw()))));
        assertEquals("", firstDifference("", json, JsonBody.mapper().valueToTree(new Yaml().load(ui.raw()))));
        assertEquals("3.0.3", json.path("openapi").asText());
        assertEquals(server.getURL() + "/api/v1.0", json.path("servers").path(0).path("url").asText());
    }

    @Test
    void noInternalBindingObjectAppears() {
        JsonNode doc = document();
        String raw = doc.toString();
        for (JsonNode path : doc.path("paths")) {
            for (JsonNode o : path) {
                for (JsonNode p : o.path("parameters")) {
                    assertFalse(Set.of("q", "caller").contains(p.path("name").asText()), o.path("operationId").asText());
                }
            }
        }
        assertFalse(raw.contains("\"*/*\""), "no */* content");
        assertFalse(doc.path("components").path("schemas").has("Caller"), "no Caller schema");
        assertFalse(doc.path("components").path("schemas").has("QueryParams"), "no QueryParams schema");
    }

    @Test
    void everyOperationWithTheParametersItDeclares() {
        JsonNode doc = document();
        assertTrue(operations.all().size() >= 60);
        Set<String> ids = new HashSet<>();
        for (ApiOperation op : operations.all()) {
            JsonNode o = operation(doc, op);
            assertTrue(ids.add(o.path("operationId").asText()), "unique operationId " + o.path("operationId"));
            assertTrue(o.path("operationId").asText().matches("[a-z][A-Za-z]+"), o.path("operationId").asText());
            assertNotNull(op.summary(), "a summary on " + op.httpLine());
            assertEquals(op.summary(), o.path("summary").asText());
            assertEquals(op.path().split("/")[3], o.path("tags").path(0).asText(), op.httpLine());
            Map<String, JsonNode> query = new java.util.LinkedHashMap<>();
            List<String> path = new ArrayList<>();
            for (JsonNode p : o.path("parameters")) {
                switch (p.path("in").asText()) {
                    case "query" -> query.put(p.path("name").asText(), p);
                    case "path" -> path.add(p.path("name").asText());
                    default -> { }
                }
            }
            assertEquals(op.pathVariables(), path, op.httpLine());
            Set<String> declared = new LinkedHashSet<>();
            op.query().parameters().forEach((name, spec) -> {
                if (spec.kind() != QueryParameter.Kind.REFUSED) {
                    declared.add(name);
                    JsonNode p = query.get(name);
                    assertNotNull(p, op.httpLine() + " " + name);
                    assertEquals(spec.isRequired(), p.path("required").asBoolean(false), op.httpLine() + " " + name);
                    if (spec.kind() != QueryParameter.Kind.LIST && !spec.values().isEmpty()) {
                        assertEquals(spec.values(), texts(p.path("schema").path("enum")), op.httpLine() + " " + name);
                    }
                    if (spec.kind() == QueryParameter.Kind.LIST) {
                        assertTrue(p.path("description").asText().contains("At most " + spec.max() + " items"));
                    }
                }
            });
            assertEquals(declared, query.keySet(), op.httpLine());
            for (String status : List.of("400", "401", "403", "404", "413", "429", "503")) {
                assertTrue(o.path("responses").has(status), op.httpLine() + " " + status);
            }
            if (op.takesBody() && op.bodyType() != dev.attribution.api.RawFile.class) {
                String ref = o.path("requestBody").path("content").path("application/json").path("schema").path("$ref").asText();
                JsonNode body = doc.path("components").path("schemas").path(ref.substring(ref.lastIndexOf('/') + 1));
                Set<String> fields = new LinkedHashSet<>();
                body.path("properties").fieldNames().forEachRemaining(fields::add);
                assertEquals(JsonBody.fieldsOf(op.bodyType()), fields, op.httpLine());
            }
        }
        for (String id : List.of("listLeads", "createLead", "updateLead", "getRequest", "getAttributionReport",
                "getRoasReport", "createOrder", "listSales", "importAdSpend", "addLeadTags", "getUrlRule")) {
            assertTrue(ids.contains(id), id + " in " + ids);
        }
    }

    @Test
    void requiredAndAllowedValuesOfTheAttributionReport() {
        JsonNode doc = document();
        Map<String, JsonNode> byName = new java.util.HashMap<>();
        doc.path("paths").path("/attribution").path("get").path("parameters")
                .forEach(p -> byName.put(p.path("name").asText(), p));
        for (String required : List.of("attributionModel", "startDate", "endDate", "fields", "level", "ids")) {
            assertTrue(byName.get(required).path("required").asBoolean(), required);
        }
        assertTrue(byName.get("startDate").path("schema").path("pattern").isTextual(), "dates carry their pattern");
        assertTrue(texts(byName.get("attributionModel").path("schema").path("enum")).size() >= 3);
    }

    @Test
    void errorsSecurityAndTheNullableNextPageIdAsTheServerSendsThem() {
        JsonNode doc = document();
        JsonNode components = doc.path("components");
        JsonNode scheme = components.path("securitySchemes").path("ApiKey");
        assertEquals("apiKey", scheme.path("type").asText());
        assertEquals("header", scheme.path("in").asText());
        assertEquals("API-Key", scheme.path("name").asText());
        assertEquals(List.of("result", "message"), texts(components.path("schemas").path("Error").path("required")));
        JsonNode tooMany = components.path("responses").path("TooManyRequests").path("headers");
        for (String h : List.of("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")) {
            assertTrue(tooMany.has(h), h);
        }
        assertTrue(components.path("responses").path("ServiceUnavailable").path("headers").has("Retry-After"));
        JsonNode page = components.path("schemas").path("PageOfLeadView");
        assertTrue(page.path("properties").path("nextPageId").path("nullable").asBoolean(), page.toString());
        assertFalse(page.path("properties").path("result").path("nullable").asBoolean(), page.toString());

        String key = newAccount();
        Response leads = get(key, "/api/v1.0/leads");
        assertEquals(200, leads.status(), leads.raw());
        assertTrue(leads.body().has("nextPageId") && leads.body().get("nextPageId").isNull(), leads.raw());
    }

    @Test
    void dateFieldsCarryTheirEncodingAndTheServerWritesThem() {
        JsonNode schemas = document().path("components").path("schemas");
        JsonNode lead = schemas.path("LeadView").path("properties").path("creationDate");
        assertEquals("date-time", lead.path("format").asText(), lead.toString());
        assertTrue(lead.path("description").asText().contains("offset"), lead.toString());
        assertTrue(schemas.path("RequestStatus").path("properties").path("createdAt").path("pattern").asText().endsWith("Z$"));
        assertTrue(schemas.path("SaleView").path("properties").path("creationDate").path("description").asText()
                .contains("EEE MMM dd HH:mm:ss zzz yyyy"));

        String key = newAccount();
        JsonNode written = write(key, "POST", "/api/v1.0/leads", "{\"email\":\"dates@example.com\"}");
        assertEquals("PROCESSED", written.path("status").asText(), written.toString());
        String requestPattern = schemas.path("RequestStatus").path("properties").path("createdAt").path("pattern").asText();
        assertTrue(written.path("createdAt").asText().matches(requestPattern), written.toString());
        Response leads = get(key, "/api/v1.0/leads?emails=" + list("dates@example.com"));
        assertEquals(200, leads.status(), leads.raw());
        String created = leads.body().path("result").path(0).path("creationDate").asText();
        assertTrue(created.matches(lead.path("pattern").asText()), created + " ~ " + lead.path("pattern") + " " + written);
    }

    /** Where two documents first differ (a JSON pointer with both values), or "" where they are equal. */
    private static String firstDifference(String at, JsonNode a, JsonNode b) {
        if (a.equals(b)) {
            return "";
        }
        if (a.isContainerNode() && b.isContainerNode() && a.size() == b.size()) {
            for (Iterator<String> names = a.isObject() ? a.fieldNames() : null; names != null && names.hasNext(); ) {
                String n = names.next();
                String d = b.has(n) ? firstDifference(at + "/" + n, a.get(n), b.get(n)) : at + "/" + n + " missing";
                if (!d.isEmpty()) {
                    return d;
                }
            }
            for (int i = 0; a.isArray() && i < a.size(); i++) {
                String d = firstDifference(at + "/" + i, a.get(i), b.get(i));
                if (!d.isEmpty()) {
                    return d;
                }
            }
        }
        return at + ": " + a + " (" + a.getNodeType() + ") vs " + b + " (" + b.getNodeType() + ")";
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }
}
