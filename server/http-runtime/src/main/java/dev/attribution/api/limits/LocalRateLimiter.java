package dev.attribution.api.limits;

import io.github.bucket4j.Bucket;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import java.util.concurrent.ConcurrentHashMap;

/** Bucket4j buckets held in this JVM: right for one server node ({@code attribution.rate-limits.store=memory}). */
@Singleton
@Requires(property = RateLimitSettings.STORE, value = RateLimitSettings.MEMORY, defaultValue = RateLimitSettings.MEMORY)
public class LocalRateLimiter implements RateLimiter {

    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

    @Override
    public Decision tryConsume(String accountId, String endpoint, int perSecond, int perMinute) {
        Bucket bucket = buckets.computeIfAbsent(BucketPolicy.key(accountId, endpoint, perSecond, perMinute),
                k -> {
                    var builder = Bucket.builder();
                    BucketPolicy.bandwidths(perSecond, perMinute).forEach(builder::addLimit);
                    return builder.build();
                });
        return BucketPolicy.decide(bucket.tryConsumeAndReturnRemaining(1), perSecond, perMinute);
    }

    @Override
    public boolean blocks() {
        return false;
    }
}
