package dev.attribution.api.limits;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one definition of a rate-limit bucket (spec 8.1.2) and of how a Bucket4j probe becomes a
 * {@link RateLimiter.Decision} (8.1.3, 8.1.4), shared by every {@link RateLimiter} store.
 */
final class BucketPolicy {

    private BucketPolicy() {
    }

    /** The bucket key: one budget per account × endpoint-and-method, per policy in force. */
    static String key(String accountId, String endpoint, int perSecond, int perMinute) {
        return accountId + '|' + endpoint + '|' + perSecond + '/' + perMinute;
    }

    /**
     * Two windows, each refilled whole at its end: {@code perSecond} per second and {@code perMinute} per minute
     * (spec 8.1). A greedy refill (a token every 1/perSecond s) let a burst through at about twice the figure: 51 of 60
     * requests written within 1 ms passed while the server took 0.78 s to answer them. Within one window no more than
     * the figure passes; BucketPolicyTest checks it on a clock it moves by hand.
     */
    static List<Bandwidth> bandwidths(int perSecond, int perMinute) {
        return List.of(
                Bandwidth.builder().capacity(perSecond).refillIntervally(perSecond, Duration.ofSeconds(1)).build(),
                Bandwidth.builder().capacity(perMinute).refillIntervally(perMinute, Duration.ofMinutes(1)).build());
    }

    static BucketConfiguration configuration(int perSecond, int perMinute) {
        var builder = BucketConfiguration.builder();
        bandwidths(perSecond, perMinute).forEach(builder::addLimit);
        return builder.build();
    }

    /**
     * Remaining is the most restrictive window's; reset is when a token for the next (or this rejected) request is
     * available, in epoch seconds rounded up; Retry-After is at least one second when rejected.
     */
    static RateLimiter.Decision decide(ConsumptionProbe probe, int perSecond, int perMinute) {
        long nowMillis = System.currentTimeMillis();
        long waitMillis = TimeUnit.NANOSECONDS.toMillis(probe.getNanosToWaitForRefill());
        long reset = (nowMillis + waitMillis + 999) / 1000;
        long retryAfter = probe.isConsumed() ? 0 : Math.max(1, (waitMillis + 999) / 1000);
        return new RateLimiter.Decision(probe.isConsumed(), perSecond, perMinute, Math.max(0, probe.getRemainingTokens()),
                reset, retryAfter);
    }
}
