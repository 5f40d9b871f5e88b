package dev.attribution.api.limits;

/**
 * Token buckets per account × endpoint × method (spec 8.1). The seam between one server node (in memory) and
 * several nodes sharing an account (a shared store).
 */
public interface RateLimiter {

    /** The outcome of taking one token, with what the response headers of 8.1.3 need. */
    record Decision(boolean allowed, int perSecond, int perMinute, long remaining, long resetEpochSecond, long retryAfterSeconds) {

        /** {@code X-RateLimit-Limit} value, e.g. {@code 30;w=1, 1000;w=60}. */
        public String limitHeader() {
            return perSecond + ";w=1, " + perMinute + ";w=60";
        }
    }

    Decision tryConsume(String accountId, String endpoint, int perSecond, int perMinute);

    /** True when {@link #tryConsume} may wait on I/O (a shared store), so it must not run on an event loop. */
    default boolean blocks() {
        return true;
    }
}
