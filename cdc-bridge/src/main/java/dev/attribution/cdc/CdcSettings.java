package dev.attribution.cdc;

import io.micronaut.context.annotation.ConfigurationProperties;

import java.util.List;

/**
 * Every setting of the CDC bridge, each defined once here with its default ({@code attribution.cdc.*}).
 */
@ConfigurationProperties("attribution.cdc")
public class CdcSettings {

    /** Replication slot the bridge reads (one per deployment). */
    private String slotName = "attribution_cdc";
    /** Publication limited to {@link #tables}, created by the bridge when absent. */
    private String publicationName = "attribution_cdc";
    /** PostgreSQL tables (schema public) streamed into ClickHouse tables of the same name. */
    private List<String> tables = List.of("leads", "lead_tags", "lead_phones", "clicks", "sales", "calls", "subscriptions",
            "ad_spend_daily", "ad_accounts", "ad_campaigns", "ad_sets", "ads", "source_links", "custom_costs",
            "conversion_touches", "sale_credits");
    /** How often Debezium polls its queue; the floor of end-to-end lag. */
    private int pollIntervalMs = 25;
    /** Largest batch handed to the sink in one insert per table. */
    private int maxBatchSize = 8192;
    /**
     * Heartbeats update the {@code cdc_heartbeat} row, a change the bridge receives: the slot's confirmed position and
     * the applied WAL position keep up with the head when domain tables are quiet (idle lag stays below this).
     */
    private int heartbeatIntervalMs = 1000;
    /** Wait before a failed engine is started again (it replays from the committed offset); 0 never restarts. */
    private long restartBackoffMs = 5000;
    /**
     * Insert batch N while the engine converts batch N+1 (offsets of N still committed only after N's insert). Off:
     * each batch is inserted and committed before the handler returns, as before the pipelining.
     */
    private boolean pipelined = true;
    /** Table holding Debezium's offsets in PostgreSQL (durable, shared by whichever node runs the bridge). */
    private String offsetTable = "cdc_offsets";

    /**
     * How often a standby node tries to take the CDC role (the slot's advisory lock), and the active node checks it
     * still holds it; the floor of a takeover after the active node died (docs/scaling.md "The CDC role").
     */
    private long roleLockPollMs = 1000;

    public String getSlotName() { return slotName; }
    public void setSlotName(String slotName) { this.slotName = slotName; }
    public String getPublicationName() { return publicationName; }
    public void setPublicationName(String publicationName) { this.publicationName = publicationName; }
    public List<String> getTables() { return tables; }
    public void setTables(List<String> tables) { this.tables = tables; }
    public int getPollIntervalMs() { return pollIntervalMs; }
    public void setPollIntervalMs(int pollIntervalMs) { this.pollIntervalMs = pollIntervalMs; }
    public int getMaxBatchSize() { return maxBatchSize; }
    public void setMaxBatchSize(int maxBatchSize) { this.maxBatchSize = maxBatchSize; }
    public int getHeartbeatIntervalMs() { return heartbeatIntervalMs; }
    public void setHeartbeatIntervalMs(int heartbeatIntervalMs) { this.heartbeatIntervalMs = heartbeatIntervalMs; }
    public long getRestartBackoffMs() { return restartBackoffMs; }
    public void setRestartBackoffMs(long restartBackoffMs) { this.restartBackoffMs = restartBackoffMs; }
    public boolean isPipelined() { return pipelined; }
    public void setPipelined(boolean pipelined) { this.pipelined = pipelined; }
    public long getRoleLockPollMs() { return roleLockPollMs; }
    public void setRoleLockPollMs(long roleLockPollMs) { this.roleLockPollMs = roleLockPollMs; }
    public String getOffsetTable() { return offsetTable; }
    public void setOffsetTable(String offsetTable) { this.offsetTable = offsetTable; }
}
