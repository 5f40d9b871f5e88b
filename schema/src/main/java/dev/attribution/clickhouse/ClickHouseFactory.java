package dev.attribution.clickhouse;

import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/** Builds the gateway from {@code clickhouse.*} configuration. */
@Factory
@Requires(property = "clickhouse.url")
public class ClickHouseFactory {

    @Singleton
    @Bean(preDestroy = "close")
    ClickHouseGateway gateway(@Value("${clickhouse.url}") String url,
                              @Value("${clickhouse.database:attribution}") String database,
                              @Value("${clickhouse.username:default}") String username,
                              @Value("${clickhouse.password:}") String password,
                              @Value("${clickhouse.cluster:}") String cluster) {
        return new ClientV2Gateway(ClientV2Gateway.endpoints(url), database, username, password, ClientV2Gateway.clusterSettings(cluster));
    }

    @Singleton
    ClickHouseSchema schema(ClickHouseGateway gateway, @Value("${clickhouse.replicated:false}") boolean replicated,
                            @Value("${clickhouse.cluster:}") String cluster) {
        return new ClickHouseSchema(gateway, replicated, cluster);
    }
}
