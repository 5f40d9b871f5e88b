package dev.attribution.clickhouse;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import jakarta.annotation.PostConstruct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the ClickHouse DDL when the application starts ({@code clickhouse.migrate}, default true), before
 * anything that reads or writes ClickHouse: beans that need the tables depend on this one.
 */
@Context
@Requires(property = ClickHouseSettings.URL)
public class ClickHouseMigrator {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseMigrator.class);

    private final ClickHouseSchema schema;
    private final boolean enabled;

    public ClickHouseMigrator(ClickHouseSchema schema, ClickHouseSettings settings) {
        this.schema = schema;
        this.enabled = settings.isMigrate();
    }

    @PostConstruct
    void migrate() {
        if (enabled) {
            var applied = schema.migrate();
            if (!applied.isEmpty()) {
                LOG.info("ClickHouse DDL applied: {}", applied);
            }
        }
    }
}
