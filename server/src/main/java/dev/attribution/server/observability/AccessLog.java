package dev.attribution.server.observability;

import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import net.logstash.logback.marker.Markers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JSON line per answered request on the logger {@value #LOGGER} (docs/operations.md "Access log"): {@code method},
 * {@code route} (the template, so no path or query value — ids, emails — is logged), {@code status},
 * {@code duration_ms}, {@code account} (the account acted on; null before authentication) and {@code request_id}.
 * Off with {@code ACCESS_LOG_LEVEL=OFF} (logback.xml).
 */
@Singleton
class AccessLog {

    static final String LOGGER = "dev.attribution.access";
    private static final Logger LOG = LoggerFactory.getLogger(LOGGER);

    void write(HttpRequest<?> request, String route, int status, long nanos) {
        if (LOG.isInfoEnabled()) {
            write(request.getMethodName(), route, status, nanos,
                    request.getAttribute(Caller.ATTRIBUTE, Caller.class).map(Caller::accountId).orElse(null),
                    RequestIds.of(request).orElseGet(RequestIds::next));
        }
    }

    void write(String method, String route, int status, long nanos, String account, String requestId) {
        if (!LOG.isInfoEnabled()) {
            return;
        }
        double millis = Math.round(nanos / 10_000.0) / 100.0;
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("method", method);
        fields.put("route", route);
        fields.put("status", status);
        fields.put("duration_ms", millis);
        fields.put("account", account);
        // the request's id whichever thread answers (the answer may be written outside the request's context)
        String outer = MDC.get(RequestIds.MDC_KEY);
        MDC.put(RequestIds.MDC_KEY, requestId);
        try {
            LOG.info(Markers.appendEntries(fields), "{} {} {} {} ms", method, route, status, millis);
        } finally {
            if (outer == null) {
                MDC.remove(RequestIds.MDC_KEY);
            } else {
                MDC.put(RequestIds.MDC_KEY, outer);
            }
        }
    }
}
