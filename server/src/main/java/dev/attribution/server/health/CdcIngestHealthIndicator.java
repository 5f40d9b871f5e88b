package dev.attribution.server.health;

import dev.attribution.cdc.ingest.CdcIngestController;
import dev.attribution.cdc.ingest.CdcIngestStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;

import java.util.Map;

/**
 * {@code /health} component {@code cdcIngest} on a node that takes CDC from Debezium Server (docs/scaling.md "CDC
 * outside the process"): what {@code POST /cdc/ingest} wrote; the same counts in Prometheus
 * {@code cdc_ingest_changes_total} and {@code cdc_ingest_snapshot_rows_total} (rows a resync brought).
 * Created at startup ({@code @Context}, as {@link CdcHealthIndicator}): its counters exist before any {@code /health}.
 */
@Context
@Requires(beans = CdcIngestController.class)
class CdcIngestHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final CdcIngestStatus status;

    CdcIngestHealthIndicator(CdcIngestStatus status, MeterRegistry registry) {
        this.status = status;
        FunctionCounter.builder("cdc.ingest.changes", status, CdcIngestStatus::changes)
                .description("row changes posted by Debezium Server and written to ClickHouse since start").register(registry);
        FunctionCounter.builder("cdc.ingest.snapshot.rows", status, CdcIngestStatus::snapshotRows)
                .description("snapshot rows (version 0) among them: a resync").register(registry);
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        healthStatus = HealthStatus.UP;
        return Map.of(
                "posts", status.posts(),
                "changes", status.changes(),
                "snapshotRows", status.snapshotRows(),
                "newestVersion", status.newestVersion(),
                "lastAppliedAt", status.lastAppliedAt());
    }

    @Override
    protected String getName() {
        return "cdcIngest";
    }
}
