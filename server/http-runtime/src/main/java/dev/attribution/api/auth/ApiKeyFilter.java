package dev.attribution.api.auth;

import dev.attribution.api.ApiException;
import dev.attribution.api.ErrorResponses;
import dev.attribution.api.NotifiedCache;
import dev.attribution.api.limits.RateLimitSettings;
import dev.attribution.api.limits.RateLimiter;
import io.micronaut.core.order.Ordered;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.filter.FilterContinuation;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteMatch;
import io.micronaut.web.router.UriRouteMatch;
import jakarta.inject.Named;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * Spec 5 and 8.1 for every {@code /api/v1.0} request, in this order: the {@code API-Key} (401), the rate limit of
 * the key's account for this endpoint and method (429), the role the endpoint declares with {@link RequiresRole}
 * (403), and the {@code Accessible-Account-Id} target (403). The resolved {@link Caller} is left on the request.
 * <p>
 * Decided on the event loop when it needs no database: the key's credentials are cached ({@link NotifiedCache}), the
 * buckets are in memory ({@link RateLimiter#blocks()}) and no other account is targeted. Otherwise (a cache miss, the
 * shared PostgreSQL buckets, agency access) the decision is made on the blocking pool. Every request used to take that
 * hop; on the write path it was one of two thread hand-offs per request (docs/BENCHMARKS.md).
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
    private final ExecutorService blocking;

    public ApiKeyFilter(AccountDirectory directory, NotifiedCache cache, RateLimiter limiter, RateLimitSettings limits,
                        @Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.blocking = blocking;
        this.directory = directory;
        this.cache = cache;
        this.limiter = limiter;
        this.defaultPerSecond = limits.getPerSecond();
        this.defaultPerMinute = limits.getPerMinute();
    }

    @RequestFilter
    public Publisher<MutableHttpResponse<?>> authenticate(HttpRequest<?> request, FilterContinuation<Publisher<MutableHttpResponse<?>>> next) {
        if (!limiter.blocks()) {
            try {
                return decide(request, false).<Publisher<MutableHttpResponse<?>>>map(Mono::just).orElseGet(next::proceed);
            } catch (NeedsDatabase e) {
                // nothing was consumed yet (see resolve): decided again below, where reading is allowed
            }
        }
        return Mono.fromCallable(() -> decide(request, true)).subscribeOn(Schedulers.fromExecutorService(blocking))
                .flatMap(refused -> refused.<Mono<MutableHttpResponse<?>>>map(Mono::just).orElseGet(() -> Mono.from(next.proceed())));
    }

    /** Empty to let the request through, or the refusal. */
    private Optional<MutableHttpResponse<?>> decide(HttpRequest<?> request, boolean mayRead) {
        try {
            request.setAttribute(Caller.ATTRIBUTE, resolve(request, mayRead));
            return Optional.empty();
        } catch (ApiException e) {
            // A response answered here skips this filter's own response step: the 429 and 403 get their headers now.
            MutableHttpResponse<?> refused = ErrorResponses.of(e);
            rateHeaders(request, refused);
            return Optional.of(refused);
        }
    }

    /** Thrown on the event loop when the decision needs the database; carries no stack trace. */
    private static final class NeedsDatabase extends RuntimeException {
        private static final NeedsDatabase INSTANCE = new NeedsDatabase();

        private NeedsDatabase() {
            super(null, null, false, false);
        }
    }

    /** {@code read} when reading is allowed, else a cache miss ends the attempt. */
    private static <T> Supplier<T> reading(boolean mayRead, Supplier<T> read) {
        return mayRead ? read : () -> {
            throw NeedsDatabase.INSTANCE;
        };
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

    private Caller resolve(HttpRequest<?> request, boolean mayRead) {
        String key = request.getHeaders().get(API_KEY_HEADER);
        if (key == null || key.isBlank()) {
            throw ApiException.unauthorized();
        }
        String hash = ApiKeys.hash(key.trim());
        AccountDirectory.Credentials credentials = cache.get("key|" + hash, reading(mayRead, () -> directory.findCredentials(hash)), Optional::isPresent)
                .filter(c -> c.grant().account().active())
                .orElseThrow(ApiException::unauthorized);
        AccountDirectory.KeyGrant grant = credentials.grant();
        Account owner = grant.account();
        if (hasNul(request)) {
            throw ApiException.badRequest(INVALID_CHARACTER);
        }

        String target = request.getHeaders().get(ACCESSIBLE_ACCOUNT_HEADER);
        boolean agency = target != null && !target.isBlank() && !target.trim().equals(owner.id());
        if (agency && !mayRead) {
            throw NeedsDatabase.INSTANCE; // before the bucket is charged: the second attempt charges it once
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

        if (!agency) {
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
