package dev.attribution.server.mcp;

import dev.attribution.api.JsonBody;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.RawFile;
import dev.attribution.server.support.ApiTest;
import io.micronaut.http.annotation.Body;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.web.router.Router;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every operation tool's input schema against what its endpoint really accepts: the schema's query arguments are the
 * endpoint's declared parameters, an enforcing endpoint refuses anything else and accepts every one of them, and no
 * endpoint reads a parameter it does not declare (which would be a 500).
 */
@MicronautTest(transactional = false)
@SuppressWarnings("unchecked")
class McpToolSchemaTest extends ApiTest {

    private static final Set<String> NOT_QUERY = Set.of(ApiOperation.BODY, ApiOperation.ACCESSIBLE_ACCOUNT_ID);

    @Inject
    ApiOperations operations;

    @Inject
    Router router;

    @SuppressWarnings("unchecked")
    private static Set<String> queryArguments(ApiOperation op) {
        Set<String> names = new LinkedHashSet<>(((Map<String, Object>) op.inputSchema().get("properties")).keySet());
        names.removeAll(NOT_QUERY);
        op.pathVariables().forEach(names::remove);
        return names;
    }

    @Test
    void theSchemaOffersExactlyTheDeclaredQueryParameters() {
        assertTrue(operations.all().size() >= 60, "one tool per operation: " + operations.all().size());
        for (ApiOperation op : operations.all()) {
            Set<String> declared = op.query().parameters().entrySet().stream()
                    .filter(e -> e.getValue().kind() != QueryParameter.Kind.REFUSED).map(Map.Entry::getKey)
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            assertEquals(declared, queryArguments(op), op.httpLine());
        }
    }

    @Test
    void anEnforcingEndpointRefusesWhatItsSchemaLacksAndAcceptsAllItOffers() {
        String key = newAccount();
        List<String> checked = new ArrayList<>();
        for (ApiOperation op : operations.all()) {
            if (!op.query().enforcing()) {
                continue;
            }
            String path = concretePath(op);
            Response unknown = send(key, op.method(), path + "?notInTheSchema=1", null);
            assertEquals(400, unknown.status(), op.httpLine() + ": " + unknown.raw());
            assertEquals("Unknown parameter: notInTheSchema", unknown.message(), op.httpLine());
            if (op.method().equals("GET")) {
                Response all = send(key, "GET", path + everyOffered(op), null);
                String message = String.valueOf(all.message());
                assertFalse(message.contains("Unknown parameter") || all.status() >= 500, op.httpLine() + ": " + all.raw());
            }
            checked.add(op.httpLine());
        }
        assertTrue(checked.size() >= 20, "enforcing endpoints checked: " + checked);
    }

    /** A lenient GET reads only declared names: with no argument and with every offered one, never a 500. */
    @Test
    void aLenientReadEndpointReadsOnlyDeclaredParameters() {
        String key = newAccount();
        for (ApiOperation op : operations.all()) {
            if (op.query().enforcing() || !op.method().equals("GET")) {
                continue;
            }
            String path = concretePath(op);
            for (String query : List.of("", everyOffered(op))) {
                Response r = send(key, "GET", path + query, null);
                assertTrue(r.status() < 500, op.httpLine() + query + ": " + r.raw());
            }
        }
    }

    @Test
    void everyEndpointReadingABodyDeclaresItsTypeAndTheToolsBodySchemaIsGeneratedFromIt() {
        Set<String> readers = router.uriRoutes()
                .filter(r -> r.getUriMatchTemplate().toPathString().startsWith(ApiOperation.PREFIX + "/"))
                .filter(r -> Arrays.stream(r.getTargetMethod().getArguments())
                        .anyMatch(a -> a.getAnnotationMetadata().hasAnnotation(Body.class)))
                .map(r -> r.getHttpMethodName() + " " + r.getUriMatchTemplate().toPathString())
                .collect(Collectors.toSet());
        Set<String> declared = operations.all().stream().filter(ApiOperation::takesBody).map(ApiOperation::httpLine)
                .collect(Collectors.toSet());
        assertEquals(readers, declared);
        for (ApiOperation op : operations.all()) {
            if (!op.takesBody()) {
                assertFalse(schemaProperties(op).containsKey(ApiOperation.BODY), op.httpLine());
                continue;
            }
            Map<String, Object> body = (Map<String, Object>) schemaProperties(op).get(ApiOperation.BODY);
            assertEquals(BodySchemas.of(op.bodyType(), op.bodyEnforcing()), body, op.httpLine());
            if (op.bodyType() != RawFile.class) {
                assertEquals(JsonBody.fieldsOf(op.bodyType()), ((Map<String, Object>) body.get("properties")).keySet(), op.httpLine());
            }
        }
    }

    /**
     * An enforcing body refuses a field its schema lacks and accepts the name of every field the schema offers; any
     * other body endpoint ignores unknown fields.
     */
    @Test
    void aBodyEndpointAcceptsTheFieldsItsSchemaOffers() {
        String key = newAccount();
        List<String> enforcing = new ArrayList<>();
        for (ApiOperation op : operations.all()) {
            if (!op.takesBody() || op.bodyType() == RawFile.class) {
                continue;
            }
            Response unknown = send(key, op.method(), concretePath(op), "{\"notInTheSchema\": 1}");
            if (op.bodyEnforcing()) {
                assertEquals(400, unknown.status(), op.httpLine() + ": " + unknown.raw());
                assertEquals("Unknown field: notInTheSchema", unknown.message(), op.httpLine());
                Map<String, Object> properties = (Map<String, Object>) ((Map<String, Object>) schemaProperties(op)
                        .get(ApiOperation.BODY)).get("properties");
                String all = properties.entrySet().stream()
                        .map(e -> '"' + e.getKey() + "\": " + sample((Map<String, Object>) e.getValue()))
                        .collect(Collectors.joining(", ", "{", "}"));
                Response offered = send(key, op.method(), concretePath(op), all);
                assertFalse(String.valueOf(offered.message()).contains("Unknown field") || offered.status() >= 500,
                        op.httpLine() + " " + all + ": " + offered.raw());
                enforcing.add(op.httpLine());
            } else {
                assertFalse(String.valueOf(unknown.message()).contains("Unknown field") || unknown.status() >= 500,
                        op.httpLine() + ": " + unknown.raw());
            }
        }
        assertTrue(enforcing.size() >= 8, enforcing.toString());
    }

    /** A JSON value of a property's schema type (a wrong value is fine: only the field's name is judged here). */
    private static String sample(Map<String, Object> property) {
        Object type = property.get("type");
        if (property.containsKey("enum")) {
            return '"' + String.valueOf(((List<?>) property.get("enum")).get(0)) + '"';
        }
        return switch (type instanceof String s ? s : "string") {
            case "number", "integer" -> "1";
            case "boolean" -> "true";
            case "array" -> "[]";
            case "object" -> "{}";
            default -> "\"x\"";
        };
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> schemaProperties(ApiOperation op) {
        return (Map<String, Object>) op.inputSchema().get("properties");
    }

    private static String concretePath(ApiOperation op) {
        String path = op.path();
        for (String v : op.pathVariables()) {
            path = path.replaceFirst("\\{" + v + "[^}]*}", "missing-" + v);
        }
        return path;
    }

    /** Every offered query parameter with a value of its kind. */
    private static String everyOffered(ApiOperation op) {
        return op.query().parameters().entrySet().stream()
                .filter(e -> e.getValue().kind() != QueryParameter.Kind.REFUSED)
                .map(e -> e.getKey() + "=" + enc(switch (e.getValue().kind()) {
                    case LIST -> "\"x\"";
                    case INTEGER -> Integer.toString(e.getValue().min());
                    case BOOLEAN -> "true";
                    case DATE -> "2024-01-01";
                    default -> "x";
                }))
                .collect(Collectors.joining("&", "?", ""));
    }
}
