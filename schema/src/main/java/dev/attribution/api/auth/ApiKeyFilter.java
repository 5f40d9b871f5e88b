package dev.attribution.api.auth;

import dev.attribution.api.ApiException;
import dev.attribution.api.ErrorResponses;
import dev.attribution.api.NotifiedCache;
import dev.attribution.api.limits.RateLimiter;
import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteMatch;
import io.micronaut.web.router.UriRouteMatch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Spec 5 and 8.1 for every {@code /api/v1.0} request, in this order: the {@code API-Key} (401), the rate limit of
 * the key's account for this endpoint and method (429), the role the endpoint declares with {@link RequiresRole}
 * (403), and the {@code Accessible-Account-Id} target (403). The resolved {@link Caller} is left on the request.
 */
@ServerFilter("/api/v1.0/**")
public class ApiKeyFilter implements Ordered {

    public static final String API_KEY_HEADER = "API-Key";
    public static final String ACCESSIBLE_ACCOUNT_HEADER = "Accessible-Account-Id";
    private static final String DECISION = "attribution.rate-decision";

    private final AccountDirectory directory;
    private final NotifiedCache cache;
    private final RateLimiter limiter;
    private final int defaultPerSecond;
    private final int defaultPerMinute;

    public ApiKeyFilter(AccountDirectory directory, NotifiedCache cache, RateLimiter limiter,
                        @Value("${attribution.rate-limits.per-second:30}") int defaultPerSecond,
                        @Value("${attribution.rate-limits.per-minute:1000}") int defaultPerMinute) {
        this.directory = directory;
        this.cache = cache;
        this.limiter = limiter;
        this.defaultPerSecond = defaultPerSecond;
        this.defaultPerMinute = defaultPerMinute;
    }

    @RequestFilter
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Nullable
    public HttpResponse<?> authenticate(HttpRequest<?> request) {
        try {
            request.setAttribute(Caller.ATTRIBUTE, resolve(request));
            return null;
        } catch (ApiException e) {
            // A response answered here skips this filter's own response step: the 429 and 403 get their headers now.
            MutableHttpResponse<?> refused = ErrorResponses.of(e);
            rateHeaders(request, refused);
            return refused;
        }
    }

    /** Spec 8.1.3: the headers on every authenticated response; a 401 carries none. */
    @ResponseFilter
    public void rateHeaders(HttpRequest<?> request, MutableHttpResponse<?> response) {
        if (response.getStatus() == HttpStatus.UNAUTHORIZED) {
            return;
        }
        request.getAttribute(DECISION, RateLimiter.Decision.class).ifPresent(d -> {
            response.getHeaders().set("X-RateLimit-Limit", d.limitHeader());
            response.getHeaders().set("X-RateLimit-Remaining", Long.toString(d.remaining()));
            response.getHeaders().set("X-RateLimit-Reset", Long.toString(d.resetEpochSecond()));
        });
    }

    private Caller resolve(HttpRequest<?> request) {
        String key = request.getHeaders().get(API_KEY_HEADER);
        if (key == null || key.isBlank()) {
            throw ApiException.unauthorized();
        }
        String hash = ApiKeys.hash(key.trim());
        AccountDirectory.Credentials credentials = cache.get("key|" + hash, () -> directory.findCredentials(hash), Optional::isPresent)
                .filter(c -> c.grant().account().active())
                .orElseThrow(ApiException::unauthorized);
        AccountDirectory.KeyGrant grant = credentials.grant();
        Account owner = grant.account();
        if (hasNul(request)) {
            throw ApiException.badRequest(INVALID_CHARACTER);
        }

        Optional<RouteMatch<?>> route = RouteAttributes.getRouteMatch(request);
        String endpoint = request.getMethodName() + " " + route
                .filter(r -> r instanceof UriRouteMatch<?, ?>)
                .map(r -> ((UriRouteMatch<?, ?>) r).getRouteInfo().getUriMatchTemplate().toPathString())
                .orElse("(no route)"); // unknown paths share one budget instead of one bucket per path sent
        AccountDirectory.RateOverride override = credentials.rateOverride();
        RateLimiter.Decision decision = limiter.tryConsume(owner.id(), endpoint,
                override.perSecond() == null ? defaultPerSecond : override.perSecond(),
                override.perMinute() == null ? defaultPerMinute : override.perMinute());
        request.setAttribute(DECISION, decision);
        if (!decision.allowed()) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS,
                    List.of("The limit of API requests was reached. Wait " + decision.retryAfterSeconds()
                            + " second(s) before sending again."),
                    Map.of("Retry-After", Long.toString(decision.retryAfterSeconds())));
        }

        Set<String> roles = grant.effectiveRoles();
        route.flatMap(r -> r.getAnnotationMetadata().stringValue(RequiresRole.class)).ifPresent(required -> {
            if (!roles.contains(required)) {
                List<String> message = new ArrayList<>();
                message.add("Forbidden, missing api key roles");
                message.add(required);
                throw ApiException.forbidden(message);
            }
        });

        String target = request.getHeaders().get(ACCESSIBLE_ACCOUNT_HEADER);
        if (target == null || target.isBlank() || target.trim().equals(owner.id())) {
            return new Caller(owner, owner, roles);
        }
        String clientId = target.trim();
        boolean approved = cache.get("agency|" + owner.id() + "|" + clientId,
                () -> directory.agencyLinkState(owner.id(), clientId), s -> true).filter("APPROVED"::equals).isPresent();
        Optional<Account> client = approved ? cache.get("account|" + clientId, () -> directory.find(clientId), a -> true) : Optional.empty();
        if (client.isEmpty()) {
            throw ApiException.forbidden(List.of("Account " + clientId + " is not one of your connected client accounts"));
        }
        if (!client.get().active()) {
            throw ApiException.forbidden(List.of("Account " + clientId + " is not active"));
        }
        return new Caller(owner, client.get(), roles);
    }

    /** A NUL character cannot be stored as text (PostgreSQL refuses it): refused wherever the request carries it. */
    public static final String INVALID_CHARACTER = "The request contains an invalid character (NUL)";

    private static boolean hasNul(HttpRequest<?> request) {
        String raw = request.getUri().getRawPath() + "?" + request.getUri().getRawQuery();
        if (raw.toLowerCase(java.util.Locale.ROOT).contains("%00") || raw.indexOf('\u0000') >= 0) {
            return true;
        }
        for (String name : new String[]{ACCESSIBLE_ACCOUNT_HEADER}) {
            String v = request.getHeaders().get(name);
            if (v != null && v.indexOf('\u0000') >= 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        return 0;
    }
}
