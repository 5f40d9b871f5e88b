package dev.attribution.command.requests;

import dev.attribution.api.ErrorResponses;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * While this node is at capacity ({@link WriteAcceptance}), a request that may write (any method but GET, HEAD and
 * OPTIONS) is refused with the same 503 before the API key is checked and the body is read, which the route's refusal
 * does not spare. Measured, that saves little: a refusal still costs ~600 µs of event-loop CPU, most of it the HTTP
 * path itself (docs/BENCHMARKS.md "Writes beyond a node's capacity"). Only reads the count: a write is admitted, and
 * counted, by {@link WriteAcceptance} alone.
 */
@ServerFilter("/api/v1.0/**")
public class WriteCapacityFilter implements Ordered {

    private final WriteAcceptance acceptance;

    public WriteCapacityFilter(WriteAcceptance acceptance) {
        this.acceptance = acceptance;
    }

    @RequestFilter
    @Nullable
    public HttpResponse<?> refuseAtCapacity(HttpRequest<?> request) {
        HttpMethod m = request.getMethod();
        if (m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS || !acceptance.atCapacity()) {
            return null;
        }
        return ErrorResponses.of(acceptance.refusal());
    }

    /** After the request's observation and the switched-off side's 404, before the API key filter (order 0). */
    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE + 20;
    }
}
