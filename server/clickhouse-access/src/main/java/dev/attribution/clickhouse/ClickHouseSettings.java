package dev.attribution.clickhouse;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.annotation.Requires;

/**
 * Every {@code clickhouse.*} setting, each defined once here with its default (README "Configuration",
 * docs/scaling.md for the cluster ones). Present when {@code clickhouse.url} is set.
 */
@ConfigurationProperties("clickhouse")
@Requires(property = ClickHouseSettings.URL)
public class ClickHouseSettings {

    /** The key whose presence turns ClickHouse on (reports, CDC, DDL). */
    public static final String URL = "clickhouse.url";

    /** One HTTP endpoint, or a comma-separated list of replicas tried in order (ClientV2Gateway). */
    private String url;
    private String database = "attribution";
    private String username = "default";
    private String password = "";
    /** A remote_servers cluster name: DDL ON CLUSTER, Replicated local tables under Distributed ones; empty = one node. */
    private String cluster = "";
    /** Replicated engines on a single-shard setup without Distributed tables. */
    private boolean replicated;
    /** Apply the numbered DDL at start (ClickHouseMigrator). */
    private boolean migrate = true;

    public String getUrl() { return url; }
    public void setUrl(String url) { this.url = url; }
    public String getDatabase() { return database; }
    public void setDatabase(String database) { this.database = database; }
    public String getUsername() { return username; }
    public void setUsername(String username) { this.username = username; }
    public String getPassword() { return password; }
    public void setPassword(String password) { this.password = password == null ? "" : password; }
    public String getCluster() { return cluster; }
    public void setCluster(String cluster) { this.cluster = cluster == null ? "" : cluster; }
    public boolean isReplicated() { return replicated; }
    public void setReplicated(boolean replicated) { this.replicated = replicated; }
    public boolean isMigrate() { return migrate; }
    public void setMigrate(boolean migrate) { this.migrate = migrate; }
}
