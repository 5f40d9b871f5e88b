package dev.attribution.server.health;

import dev.attribution.cdc.CdcBridge;
import dev.attribution.cdc.CdcStatus;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;

import java.util.Map;

/**
 * {@code /health} component {@code cdc}: the bridge's state and lag; the same figures as Prometheus gauges
 * {@code cdc_lag_milliseconds} and {@code cdc_events_applied}.
 */
@Singleton
@Requires(beans = CdcBridge.class)
class CdcHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final CdcStatus status;

    CdcHealthIndicator(CdcStatus status, MeterRegistry registry) {
        this.status = status;
        Gauge.builder("cdc.lag.milliseconds", status, CdcStatus::lagMillis)
                .description("commit-to-ClickHouse delay of the newest applied change").register(registry);
        Gauge.builder("cdc.events.applied", status, CdcStatus::eventsApplied)
                .description("row changes written to ClickHouse since start").register(registry);
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        healthStatus = status.state() == CdcStatus.State.FAILED ? HealthStatus.DOWN : HealthStatus.UP;
        return Map.of(
                "state", status.state().name(),
                "lagMillis", status.lagMillis(),
                "eventsApplied", status.eventsApplied(),
                "error", status.error() == null ? "" : status.error());
    }

    @Override
    protected String getName() {
        return "cdc";
    }
}
