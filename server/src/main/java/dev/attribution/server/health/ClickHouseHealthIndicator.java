package dev.attribution.server.health;

import dev.attribution.clickhouse.ClickHouseGateway;
import io.micronaut.context.annotation.Requires;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.AbstractHealthIndicator;
import jakarta.inject.Singleton;

import java.util.Map;

/** {@code /health} component {@code clickhouse}: UP when the analytics store answers. */
@Singleton
@Requires(beans = ClickHouseGateway.class)
class ClickHouseHealthIndicator extends AbstractHealthIndicator<Map<String, Object>> {

    private final ClickHouseGateway gateway;

    ClickHouseHealthIndicator(ClickHouseGateway gateway) {
        this.gateway = gateway;
    }

    @Override
    protected Map<String, Object> getHealthInformation() {
        boolean up = gateway.ping();
        healthStatus = up ? HealthStatus.UP : HealthStatus.DOWN;
        return Map.of("database", gateway.database());
    }

    @Override
    protected String getName() {
        return "clickhouse";
    }
}
