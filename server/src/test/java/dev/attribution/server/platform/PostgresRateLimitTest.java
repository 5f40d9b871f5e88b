package dev.attribution.server.platform;

import dev.attribution.api.limits.PostgresRateLimiter;
import dev.attribution.api.limits.RateLimiter;
import io.micronaut.context.annotation.Property;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** Every rate-limit rule of {@link RateLimitTest} again, with the buckets in PostgreSQL. */
@MicronautTest(transactional = false)
@Property(name = "attribution.rate-limits.store", value = "postgres")
class PostgresRateLimitTest extends RateLimitTest {

    @Inject
    RateLimiter limiter;

    @Test
    void storeSwitchSelectsThePostgresLimiter() {
        assertInstanceOf(PostgresRateLimiter.class, limiter);
    }
}
