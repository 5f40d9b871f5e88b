package dev.attribution.server.mcp;

import dev.attribution.api.auth.ApiKeyFilter;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.runtime.server.EmbeddedServer;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sends a tool call to this server's own HTTP API with the MCP caller's {@code API-Key} (and
 * {@code Accessible-Account-Id}), so a tool runs exactly the endpoint's code: authentication, rate limits of the key's
 * account, roles, agency target, validation and the error envelope.
 */
@Singleton
class LoopbackApi {

    record Reply(int status, String contentType, String body, Map<String, List<String>> headers) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .findFirst().map(e -> e.getValue().get(0)).orElse(null);
        }
    }

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final Provider<EmbeddedServer> server;
    private final String configuredBase;

    LoopbackApi(Provider<EmbeddedServer> server, McpSettings settings) {
        this.server = server;
        this.configuredBase = settings.getApiUrl();
    }

    Reply send(String apiKey, @Nullable String accessibleAccountId, String method, String pathAndQuery,
               @Nullable String body, @Nullable String contentType) throws IOException, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
                .timeout(Duration.ofSeconds(60))
                .header(ApiKeyFilter.API_KEY_HEADER, apiKey)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", contentType == null ? "application/json" : contentType);
        }
        if (accessibleAccountId != null) {
            b.header(ApiKeyFilter.ACCESSIBLE_ACCOUNT_HEADER, accessibleAccountId);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Reply(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body(), r.headers().map());
    }

    /** {@code attribution.mcp.api-url} when set, else this server's own address (a wildcard bind is reached on loopback). */
    private String base() {
        if (configuredBase != null && !configuredBase.isBlank()) {
            return configuredBase.replaceAll("/+$", "");
        }
        EmbeddedServer s = server.get();
        String host = s.getHost();
        if (host == null || host.isBlank() || host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            host = "127.0.0.1";
        }
        return s.getScheme() + "://" + host + ":" + s.getPort();
    }
}
