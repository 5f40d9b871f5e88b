package dev.attribution.api.limits;

import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.jdbc.PrimaryKeyMapper;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.github.bucket4j.postgresql.PostgreSQLSelectForUpdateBasedProxyManager;
import io.micronaut.context.annotation.Requires;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import io.micronaut.scheduling.annotation.Scheduled;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.time.Duration;

/**
 * Bucket4j buckets kept in PostgreSQL (table {@code rate_limit_buckets}, V10), so every server node over one
 * database charges one shared budget per account ({@code attribution.rate-limits.store=postgres}). Each request
 * takes its token in a short transaction holding the bucket row ({@code SELECT ... FOR UPDATE}).
 */
@Singleton
@Requires(property = RateLimitSettings.STORE, value = "postgres")
public class PostgresRateLimiter implements RateLimiter {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresRateLimiter.class);

    private final PostgreSQLSelectForUpdateBasedProxyManager<String> buckets;

    public PostgresRateLimiter(DataSource dataSource) {
        // Bucket4j commits its own transactions: it needs the pool, not the transaction-aware proxy.
        this.buckets = Bucket4jPostgreSQL.selectForUpdateBasedBuilder(DelegatingDataSource.unwrapDataSource(dataSource))
                .primaryKeyMapper(PrimaryKeyMapper.STRING)
                .table("rate_limit_buckets")
                .idColumn("id")
                .stateColumn("state")
                .expiresAtColumn("expires_at")
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .build();
    }

    @Override
    public Decision tryConsume(String accountId, String endpoint, int perSecond, int perMinute) {
        return BucketPolicy.decide(buckets.builder()
                .build(BucketPolicy.key(accountId, endpoint, perSecond, perMinute), () -> BucketPolicy.configuration(perSecond, perMinute))
                .tryConsumeAndReturnRemaining(1), perSecond, perMinute);
    }

    /** Drops buckets that have been full for a while (they read as full when recreated). */
    @Scheduled(fixedDelay = "60s", initialDelay = "60s")
    void removeExpired() {
        int removed;
        do {
            removed = buckets.removeExpired(1000);
        } while (removed >= 1000);
        LOG.debug("rate-limit buckets expired");
    }
}
