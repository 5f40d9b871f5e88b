package dev.attribution.server.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RawFile;
import dev.attribution.server.mcp.ApiOperation;
import dev.attribution.server.mcp.ApiOperations;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpResponse;
import jakarta.inject.Singleton;
import org.reactivestreams.Publisher;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;

/**
 * The API's OpenAPI 3.0 document, assembled from the router's {@code /api/v1.0} routes ({@link ApiOperations}, the
 * same list the MCP tools come from) and the declarations the server validates with: path variables, the
 * {@code QueryParameter} interfaces, the {@code @RequestBodyType} records, {@code @Operation(summary)},
 * {@code @RequiresRole} and the return types. Nothing is written twice; the micronaut-openapi compile-time document
 * (which described the internal binding objects) is no longer served.
 */
@Singleton
public class OpenApiDocument {

    public static final String TITLE = "Attribution API";
    public static final String VERSION = "1.44";

    private final ApiOperations operations;
    private volatile ObjectNode document;

    OpenApiDocument(ApiOperations operations) {
        this.operations = operations;
    }

    /** The document for a server reached at {@code baseUrl} (scheme, host and port), as its {@code servers} entry. */
    public ObjectNode forServer(String baseUrl) {
        ObjectNode doc = document().deepCopy();
        ArrayNode servers = OpenApiSchemas.object().arrayNode();
        servers.addObject().put("url", baseUrl + ApiOperation.PREFIX).put("description", "this server");
        doc.set("servers", servers);
        return doc;
    }

    private ObjectNode document() {
        ObjectNode doc = document;
        if (doc == null) {
            doc = build();
            document = doc;
        }
        return doc;
    }

    private ObjectNode build() {
        ObjectNode doc = OpenApiSchemas.object().put("openapi", "3.0.3");
        doc.putObject("info").put("title", TITLE).put("version", VERSION).put("description", OpenApiText.INFO);
        doc.putArray("servers");
        doc.putArray("security").addObject().putArray("ApiKey");
        ArrayNode tags = doc.putArray("tags");
        ObjectNode paths = doc.putObject("paths");
        OpenApiSchemas schemas = new OpenApiSchemas();
        Set<String> tagNames = new TreeSet<>();
        Set<String> ids = new HashSet<>();
        for (ApiOperation op : operations.all()) {
            String relative = op.path().substring(ApiOperation.PREFIX.length()).replaceAll("\\{([^}/?:]+)[^}]*}", "{$1}");
            String tag = relative.split("/")[1];
            tagNames.add(tag);
            ObjectNode path = paths.get(relative) instanceof ObjectNode existing ? existing : paths.putObject(relative);
            ObjectNode o = path.putObject(op.method().toLowerCase(java.util.Locale.ROOT));
            Argument<?> returned = unwrap(op.returns());
            String id = OperationIds.of(op, returned.getType() == Envelopes.Page.class);
            for (int n = 2; !ids.add(id); n++) {
                id = OperationIds.of(op, returned.getType() == Envelopes.Page.class) + n;
            }
            o.putArray("tags").add(tag);
            o.put("summary", op.summary() == null ? op.httpLine() : op.summary());
            o.put("description", OpenApiText.operation(op));
            o.put("operationId", id);
            ArrayNode parameters = OpenApiParameters.of(op, op.declarations());
            o.set("parameters", parameters);
            if (op.takesBody()) {
                o.set("requestBody", body(op, schemas));
            }
            o.set("responses", responses(op, returned, schemas));
        }
        tagNames.forEach(t -> tags.addObject().put("name", t).put("description", OpenApiText.tag(t)));
        ObjectNode components = doc.putObject("components");
        components.putObject("securitySchemes").putObject("ApiKey").put("type", "apiKey").put("in", "header")
                .put("name", "API-Key").put("description", "The account's API key (spec 5.1); `scripts/admin account create` prints one.");
        components.set("schemas", schemas.components());
        components.putObject("parameters").set("AccessibleAccountId",
                JsonBody.mapper().valueToTree(OpenApiParameters.accessibleAccountId()));
        OpenApiErrors.addTo(components);
        OpenApiSchemas.dropUnreferenced(doc);
        return doc;
    }

    private static ObjectNode body(ApiOperation op, OpenApiSchemas schemas) {
        ObjectNode body = OpenApiSchemas.object().put("required", true);
        ObjectNode content = body.putObject("content");
        if (op.bodyType() == RawFile.class) {
            body.put("description", "The file itself: CSV with a header row, or JSON lines.");
            ObjectNode csv = content.putObject("text/csv");
            csv.putObject("schema").put("type", "string");
            if (op.bodyExample() != null) {
                csv.put("example", op.bodyExample());
            }
            content.putObject("application/x-ndjson").putObject("schema").put("type", "string");
        } else {
            ObjectNode schema = schemas.reference(op.bodyType());
            if (op.bodyEnforcing()) {
                body.put("description", "Fields other than those listed are refused (`Unknown field: <name>`).");
            }
            ObjectNode json = content.putObject("application/json");
            json.set("schema", schema);
            if (op.bodyExample() != null) {
                try {
                    json.set("example", JsonBody.mapper().readTree(op.bodyExample()));
                } catch (java.io.IOException e) {
                    throw new IllegalStateException("Example of " + op.httpLine() + " is no JSON", e);
                }
            }
        }
        return body;
    }

    private static ObjectNode responses(ApiOperation op, Argument<?> returned, OpenApiSchemas schemas) {
        ObjectNode responses = OpenApiSchemas.object();
        ObjectNode ok = responses.putObject("200").put("description", OpenApiText.success(op, returned));
        OpenApiErrors.rateHeaders(ok.putObject("headers"));
        ObjectNode content = ok.putObject("content");
        List<String> produces = op.produces().isEmpty() ? List.of("application/json") : op.produces();
        for (String type : produces) {
            ObjectNode media = content.putObject(type);
            if (type.startsWith("application/json") && describable(returned)) {
                media.set("schema", schemas.reference(returned.asType()));
                if (returned.getType() == Envelopes.WriteAccepted.class) { // a real answer of POST /leads
                    media.putObject("example").put("request_id", "1a21775db7d-7c567b514162c393").put("result", "OK");
                }
            } else {
                media.putObject("schema").put("type", type.startsWith("application/json") ? "object" : "string");
            }
        }
        OpenApiErrors.RESPONSES.forEach((status, name) ->
                responses.putObject(status).put("$ref", "#/components/responses/" + name));
        if (op.takesBody()) {
            responses.putObject("415").put("$ref", "#/components/responses/UnsupportedMediaType");
        }
        return responses;
    }

    /** The type a route's body really is: inside {@code CompletableFuture}, {@code HttpResponse}, a publisher. */
    static Argument<?> unwrap(Argument<?> type) {
        Argument<?> t = type;
        while ((CompletionStage.class.isAssignableFrom(t.getType()) || HttpResponse.class.isAssignableFrom(t.getType())
                || Publisher.class.isAssignableFrom(t.getType())) && t.getTypeParameters().length == 1) {
            t = t.getTypeParameters()[0];
        }
        return t;
    }

    private static boolean describable(Argument<?> type) {
        Class<?> c = type.getType();
        return c != Object.class && c != void.class && c != Void.class && c != String.class && c != JsonNode.class;
    }
}
