package dev.attribution.api.limits;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** Bucket4j buckets held in this JVM: right for one server node. */
@Singleton
@Requires(property = "attribution.rate-limits.store", value = "memory", defaultValue = "memory")
public class LocalRateLimiter implements RateLimiter {

    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Override
    public Decision tryConsume(String accountId, String endpoint, int perSecond, int perMinute) {
        String key = accountId + '\u0000' + endpoint + '\u0000' + perSecond + '/' + perMinute;
        Bucket bucket = buckets.computeIfAbsent(key, k -> Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(perSecond).refillGreedy(perSecond, Duration.ofSeconds(1)).build())
                .addLimit(Bandwidth.builder().capacity(perMinute).refillGreedy(perMinute, Duration.ofMinutes(1)).build())
                .build());
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        long nowMillis = System.currentTimeMillis();
        long waitMillis = TimeUnit.NANOSECONDS.toMillis(probe.getNanosToWaitForRefill());
        long reset = (nowMillis + waitMillis + 999) / 1000;
        long retryAfter = probe.isConsumed() ? 0 : Math.max(1, (waitMillis + 999) / 1000);
        return new Decision(probe.isConsumed(), perSecond, perMinute, probe.getRemainingTokens(), reset, retryAfter);
    }
}
