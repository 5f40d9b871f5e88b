package dev.attribution.server.mcp;

import io.micronaut.context.annotation.ConfigurationProperties;

/** Every setting of the MCP bridge, each defined once here with its default ({@code attribution.mcp.*}). */
@ConfigurationProperties("attribution.mcp")
public class McpSettings {

    /**
     * Where the {@code /mcp} tools send their API calls (with the caller's key); empty: this server itself. Set it to
     * the API's load balancer when this node does not serve both command and query roles ({@code MCP_API_URL}).
     */
    private String apiUrl = "";

    public String getApiUrl() { return apiUrl; }
    public void setApiUrl(String v) { this.apiUrl = v == null ? "" : v.trim(); }
}
