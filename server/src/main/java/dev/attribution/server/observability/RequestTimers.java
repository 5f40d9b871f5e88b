package dev.attribution.server.observability;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.inject.Singleton;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code http_server_requests_seconds}: every answered request by {@code method}, {@code route} (the template) and
 * {@code status}, as a histogram with fixed buckets ({@code _bucket}, {@code _count}, {@code _sum}; a p99 is
 * {@code histogram_quantile(0.99, …)}) and {@code _max}. Replaces Micronaut's own request timer
 * ({@code micronaut.metrics.binders.web.enabled: false}), which missed the answers of filters and had no buckets.
 */
@Singleton
class RequestTimers {

    /** 1 ms to 30 s: the fast reads and accepted writes at the bottom, reports and imports at the top. */
    static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(30)};

    /** Methods named as sent; any other (a client may send any token) is {@code OTHER}. */
    private static final Set<String> METHODS = Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE");

    private record Key(String method, String route, int status) {
    }

    private final MeterRegistry registry;
    private final ConcurrentHashMap<Key, Timer> timers = new ConcurrentHashMap<>();

    RequestTimers(MeterRegistry registry) {
        this.registry = registry;
    }

    void record(String method, String route, int status, long nanos) {
        Key key = new Key(METHODS.contains(method) ? method : "OTHER", route, status);
        timers.computeIfAbsent(key, this::timer).record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer timer(Key key) {
        return Timer.builder("http.server.requests")
                .description("HTTP requests answered, by route template, method and status (filters' answers included)")
                .tags("method", key.method(), "route", key.route(), "status", Integer.toString(key.status()))
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }
}
