package dev.attribution.api;

import io.micronaut.context.annotation.ConfigurationProperties;

/**
 * The sides a node runs ({@code attribution.roles.*}, README "Node roles"), each defined once here with its default.
 * Beans of a side are switched off with {@code @Requires(property = RoleSettings.COMMAND, notEquals = "false")};
 * routes by {@link ServedBy} through the server's role filter.
 */
@ConfigurationProperties("attribution.roles")
public class RoleSettings {

    public static final String COMMAND = "attribution.roles.command";
    public static final String QUERY = "attribution.roles.query";
    public static final String CDC = "attribution.roles.cdc";

    /** Accepts and applies writes (the request log's workers, webhook deliveries). */
    private boolean command = true;
    /** Answers reads and runs report jobs. */
    private boolean query = true;
    /** Runs the embedded CDC bridge (at most one node streams at a time; docs/scaling.md). */
    private boolean cdc = true;

    public boolean isCommand() { return command; }
    public void setCommand(boolean command) { this.command = command; }
    public boolean isQuery() { return query; }
    public void setQuery(boolean query) { this.query = query; }
    public boolean isCdc() { return cdc; }
    public void setCdc(boolean cdc) { this.cdc = cdc; }
}
