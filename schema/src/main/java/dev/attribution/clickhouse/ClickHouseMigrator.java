package dev.attribution.clickhouse;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.annotation.PostConstruct;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the ClickHouse DDL when the application starts ({@code clickhouse.migrate}, default true), before
 * anything that reads or writes ClickHouse: beans that need the tables depend on this one.
 */
@Context
@Requires(property = "clickhouse.url")
public class ClickHouseMigrator {

    private static final Logger LOG = LoggerFactory.getLogger(ClickHouseMigrator.class);

    private final ClickHouseSchema schema;
    private final boolean enabled;

    public ClickHouseMigrator(ClickHouseSchema schema, @Value("${clickhouse.migrate:true}") boolean enabled) {
        this.schema = schema;
        this.enabled = enabled;
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
