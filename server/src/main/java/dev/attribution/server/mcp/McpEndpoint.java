package dev.attribution.server.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import reactor.core.publisher.Mono;

/**
 * The SDK's stateless MCP server behind {@code /mcp}. The SDK's own HTTP transports are servlets; this server runs
 * on Netty, so the transport is the SDK's {@link McpStatelessServerTransport} contract with {@link McpController} as
 * its HTTP side: the controller hands each JSON-RPC message to the {@link McpStatelessServerHandler} the SDK installs.
 * Built on first use, when the router (whose routes become the tools) is complete.
 */
@Singleton
class McpEndpoint implements McpStatelessServerTransport {

    private final McpTools tools;
    private final McpJsonMapper jsonMapper = new JacksonMcpJsonMapper(new ObjectMapper());
    private volatile McpStatelessServerHandler handler;
    private volatile McpStatelessSyncServer server;

    McpEndpoint(McpTools tools) {
        this.tools = tools;
    }

    McpJsonMapper jsonMapper() {
        return jsonMapper;
    }

    /** The SDK's handler, the server being built on the first call. */
    McpStatelessServerHandler handler() {
        if (server == null) {
            synchronized (this) {
                if (server == null) {
                    server = McpServer.sync(this)
                            .serverInfo("attribution-api", "1.0")
                            .instructions("Tools mirror the attribution API (/api/v1.0): one tool per operation, called"
                                    + " with this connection's API key. Writes are asynchronous: poll"
                                    + " get_requests_by_request_id with the request_id they return.")
                            .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                            .jsonMapper(jsonMapper)
                            .tools(tools.specifications())
                            .build();
                }
            }
        }
        return handler;
    }

    @Override
    public void setMcpHandler(McpStatelessServerHandler mcpHandler) {
        this.handler = mcpHandler;
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.empty();
    }

    @PreDestroy
    void stop() {
        if (server != null) {
            server.close();
        }
    }
}
