package dev.attribution.api;

/**
 * The side of the API a route belongs to, declared on its controller with {@link ServedBy}. A node whose
 * {@code attribution.roles.<side>} is false answers that side's routes 404 with the error envelope, so a load
 * balancer can send each route to a pool of nodes serving its side (README, "Node roles").
 */
public enum NodeSide {

    /** Changes the system of record: the request-log writes and the synchronous writes (webhook subscriptions). */
    COMMAND("command"),
    /** Reads, PostgreSQL record reads and ClickHouse analytics, including report jobs run by the query nodes. */
    QUERY("query"),
    /** Served by every node whatever its roles: documents, the MCP bridge and the error handler. */
    EVERY_NODE(null);

    private final String role;

    NodeSide(String role) {
        this.role = role;
    }

    /** The role switching this side off ({@code attribution.roles.<role>}); null for {@link #EVERY_NODE}. */
    public String role() {
        return role;
    }
}
