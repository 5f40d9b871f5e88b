package dev.attribution.server.observability;

import dev.attribution.api.RequestIds;
import io.micronaut.context.propagation.slf4j.MdcPropagationContext;
import io.micronaut.core.order.Ordered;
import io.micronaut.core.propagation.MutablePropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.UriRouteMatch;

import java.util.Map;
import java.util.Optional;

/**
 * The first filter of every request (docs/operations.md): gives the request its id ({@link RequestIds#assign}) and
 * puts it in the MDC of every thread the request runs on (Micronaut propagates the MDC with the request's context),
 * then, once the answer is known, records it in {@code http_server_requests_seconds} ({@link RequestTimers}) and
 * writes its access log line ({@link AccessLog}). First, so that answers given by later filters — the API key's
 * 401, 403 and 429, a switched-off role's 404 — are counted and logged like the routes' own.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class RequestObservation implements Ordered {

    private static final String STARTED = "attribution.request-started";
    private static final String ROUTE = "attribution.route-template";

    /** The route label of a request no route matched (404, or refused before routing: a body over the limit's 413). */
    static final String UNMATCHED = "unmatched";

    /** The route label of a file served from a static mapping ({@code /swagger-ui/**}): no route, yet answered. */
    static final String STATIC = "static";

    private final RequestTimers timers;
    private final AccessLog accessLog;

    RequestObservation(RequestTimers timers, AccessLog accessLog) {
        this.timers = timers;
        this.accessLog = accessLog;
    }

    @RequestFilter
    public void start(HttpRequest<?> request, MutablePropagatedContext context) {
        request.setAttribute(STARTED, System.nanoTime());
        // the route as matched now: an error answer (a malformed body's 400) replaces the match with its error route
        template(request).ifPresent(t -> request.setAttribute(ROUTE, t));
        context.add(new MdcPropagationContext(Map.of(RequestIds.MDC_KEY, RequestIds.assign(request))));
    }

    @ResponseFilter
    public void finish(HttpRequest<?> request, MutableHttpResponse<?> response) {
        long nanos = request.getAttribute(STARTED, Long.class).map(t -> System.nanoTime() - t).orElse(0L);
        int status = response.code();
        String route = route(request, status);
        timers.record(request.getMethodName(), route, status, nanos);
        accessLog.write(request, route, status, nanos);
    }

    /** The route's template ({@code /api/v1.0/leads/{id}}), never the path: labels stay few whatever is sent. */
    static String route(HttpRequest<?> request, int status) {
        return request.getAttribute(ROUTE, String.class).or(() -> template(request)).orElse(status < 400 ? STATIC : UNMATCHED);
    }

    private static Optional<String> template(HttpRequest<?> request) {
        return RouteAttributes.getRouteMatch(request)
                .filter(UriRouteMatch.class::isInstance)
                .map(m -> ((UriRouteMatch<?, ?>) m).getRouteInfo().getUriMatchTemplate().toPathString());
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }
}
