package dev.attribution.server.openapi;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.JsonBody;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Hidden;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.Map;

/**
 * Serves the OpenAPI document, without an API key: {@code /openapi.json}, {@code /openapi.yml}, and at the path
 * Swagger UI ({@code /swagger-ui/index.html}) loads it from. Its {@code servers} entry is the address the request
 * reached (the {@code Host} header, and {@code X-Forwarded-Proto} behind a TLS proxy).
 */
@ServedBy(NodeSide.EVERY_NODE)
@Controller
@Hidden
class OpenApiController {

    static final MediaType YAML = MediaType.of("application/yaml");

    private final OpenApiDocument document;

    OpenApiController(OpenApiDocument document) {
        this.document = document;
    }

    @Get(value = "/openapi.json", produces = MediaType.APPLICATION_JSON)
    HttpResponse<String> json(HttpRequest<?> request) throws Exception {
        return HttpResponse.ok(JsonBody.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(of(request)));
    }

    @Get(value = "/openapi.yml", produces = "application/yaml")
    HttpResponse<String> yaml(HttpRequest<?> request) {
        return HttpResponse.<String>ok(yaml(of(request))).contentType(YAML);
    }

    @Get(value = "/swagger/attribution-api-" + OpenApiDocument.VERSION + ".yml", produces = "application/yaml")
    HttpResponse<String> swaggerUi(HttpRequest<?> request) {
        return yaml(request);
    }

    private ObjectNode of(HttpRequest<?> request) {
        String host = request.getHeaders().get(HttpHeaders.HOST);
        if (host == null || host.isBlank() || !host.matches("[A-Za-z0-9.\\-:\\[\\]]+")) {
            host = request.getServerAddress().getHostString() + ":" + request.getServerAddress().getPort();
        }
        String proto = request.getHeaders().get("X-Forwarded-Proto");
        String scheme = "https".equalsIgnoreCase(proto) || request.isSecure() ? "https" : "http";
        return document.forServer(scheme + "://" + host);
    }

    @SuppressWarnings("unchecked")
    static String yaml(ObjectNode doc) {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        options.setWidth(120);
        options.setSplitLines(false);
        return new Yaml(options).dump(JsonBody.mapper().convertValue(doc, Map.class));
    }
}
