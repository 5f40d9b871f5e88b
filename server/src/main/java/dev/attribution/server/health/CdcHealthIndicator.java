package dev.attribution.server.health;

import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcLag;
import dev.attribution.cdc.CdcStatus;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;

import java.util.Map;

/**
 * {@code /health} component {@code cdc}: the bridge's state and lag; the same figures in Prometheus
 * {@code cdc_lag_seconds} (time behind the WAL head), {@code cdc_wal_behind_bytes},
 * {@code cdc_commit_lag_seconds} (commit-to-ClickHouse delay of the last applied change) and the counter
 * {@code cdc_events_applied_total} (docs/operations.md; seconds, not milliseconds: Prometheus' base unit).
 *
 * <p>One node of a deployment streams (docs/scaling.md "The CDC role"): its {@code role} is {@code active}; the
 * others read {@code standby}, are UP (a standby is healthy: it takes over when the active node dies) and report no
 * lag (0: the lag is the active node's figure); {@code cdc_role_active} is 1 on the active node only. A stopped
 * bridge reads {@code stopped} and keeps its growing lag.
 * <p>Created at startup ({@code @Context}): a lazy singleton registered its meters at the first {@code /health}, so a
 * scrape of a node nobody had health-checked had no {@code cdc_*} series (and the benches' settle step waited for
 * nothing).
 */
@Context
@Requires(beans = CdcBridge.class)
class CdcHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final CdcStatus status;
    private final CdcLag lag;

    CdcHealthIndicator(CdcStatus status, CdcLag lag, MeterRegistry registry) {
        this.status = status;
        this.lag = lag;
        Gauge.builder("cdc.role.active", status, s -> s.active() ? 1 : 0)
                .description("1 on the node that holds the CDC role (streams), 0 on a standby").register(registry);
        Gauge.builder("cdc.lag", this, h -> h.lagMillis() / 1000.0).baseUnit("seconds")
                .description("seconds since the WAL head stood where ClickHouse is now (0 when caught up)").register(registry);
        Gauge.builder("cdc.wal.behind", this, CdcHealthIndicator::walBytesBehind).baseUnit("bytes")
                .description("bytes of WAL between the head and the position applied to ClickHouse").register(registry);
        Gauge.builder("cdc.commit.lag", status, s -> s.lagMillis() / 1000.0).baseUnit("seconds")
                .description("commit-to-ClickHouse delay of the newest change of the last applied batch").register(registry);
        FunctionCounter.builder("cdc.events.applied", status, CdcStatus::eventsApplied)
                .description("row changes written to ClickHouse since start").register(registry);
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        healthStatus = status.state() == CdcStatus.State.FAILED ? HealthStatus.DOWN : HealthStatus.UP;
        return Map.of(
                "role", status.standby() ? "standby" : status.active() ? "active" : "stopped",
                "state", status.state().name(),
                "lagMillis", lagMillis(),
                "walBytesBehind", walBytesBehind(),
                "commitLagMillis", status.standby() ? 0 : status.lagMillis(),
                "eventsApplied", status.eventsApplied(),
                "error", status.error() == null ? "" : status.error());
    }

    /**
     * The lag of this node's bridge; 0 on a standby (the lag is the active node's; a former active node's figure would
     * only grow). A stopped bridge (the only one, stopped) keeps its growing lag.
     */
    private long lagMillis() {
        return status.standby() ? 0 : lag.lagMillis();
    }

    private long walBytesBehind() {
        return status.standby() ? 0 : lag.walBytesBehind();
    }

    @Override
    protected String getName() {
        return "cdc";
    }
}
