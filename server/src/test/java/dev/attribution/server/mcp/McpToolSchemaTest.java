package dev.attribution.server.mcp;

import dev.attribution.api.QueryParameter;
import dev.attribution.server.support.ApiTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
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
class McpToolSchemaTest extends ApiTest {

    private static final Set<String> NOT_QUERY = Set.of(ApiOperation.BODY, ApiOperation.ACCESSIBLE_ACCOUNT_ID);

    @Inject
    ApiOperations operations;

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
