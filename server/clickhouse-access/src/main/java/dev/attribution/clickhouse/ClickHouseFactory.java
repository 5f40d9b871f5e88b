package dev.attribution.clickhouse;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/** Builds the gateway and the schema from {@link ClickHouseSettings}. */
@Factory
@Requires(property = ClickHouseSettings.URL)
public class ClickHouseFactory {

    @Singleton
    @Bean(preDestroy = "close")
    ClickHouseGateway gateway(ClickHouseSettings s) {
        return new ClientV2Gateway(ClientV2Gateway.endpoints(s.getUrl()), s.getDatabase(), s.getUsername(), s.getPassword(),
                ClientV2Gateway.clusterSettings(s.getCluster()));
    }

    @Singleton
    ClickHouseSchema schema(ClickHouseGateway gateway, ClickHouseSettings s) {
        return new ClickHouseSchema(gateway, s.isReplicated(), s.getCluster());
    }
}
