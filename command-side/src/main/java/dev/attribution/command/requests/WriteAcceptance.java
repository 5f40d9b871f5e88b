package dev.attribution.command.requests;

import dev.attribution.api.ApiException;
import dev.attribution.api.DatabaseReads;
import dev.attribution.api.Envelopes;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.context.ServerRequestContext;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * How a write route answers without a request thread waiting for the request log. The route runs on the event loop
 * ({@code @NonBlocking}) and passes its write: validation ending in {@link WriteRequestLog#submit}. The write is
 * tried right there, where the database must not be read ({@link DatabaseReads#without}); everything an ordinary
 * write needs is in memory (the API key's grant, the contact blacklist). A write that needs a read — a cache miss, a
 * blacklist too long to hold, a lead-stage lookup — is done again on the blocking pool. Either way the answer
 * {@code {request_id, result:'OK'}} is sent once the committer thread completes the future, the row durable: it is
 * rendered on the request's own event loop, not on the committer, which completes a whole commit's futures in turn
 * and would otherwise run every one's response filters, access log line and JSON body serially before it commits
 * again (at 500 writes/s that was most of the committer's CPU, docs/BENCHMARKS.md "The acceptance path alone").
 * A refusal found while validating ({@code ApiException}: 400, the blacklist's 400 without a {@code request_id}) is
 * thrown or completes the future exceptionally, and is answered with the error envelope as before.
 * <p>
 * A request carrying an {@link IdempotencyKey} runs its write with the key in scope, wherever it runs, so the request
 * log stores it once per key ({@link WriteRequestLog#submit}).
 * <p>
 * Capacity ({@code attribution.requests.max-in-flight}): a write is in flight from here until its answer is rendered.
 * When that many are, the next is refused at once — before its body is bound — with a 503, {@code Retry-After} and the
 * error envelope, and nothing of it is stored. Without the bound an overloaded node took every write and answered them
 * seconds later: the commits stayed fast (~20 ms), but the answers queued on the event loops behind the new requests'
 * work, and clients timed out on writes that had been stored (1,858 of 60,000 at 1,000 mixed writes/s answered by no
 * one in 30 s; docs/BENCHMARKS.md "Writes beyond a node's capacity"). A refused write is safe to send again. While at
 * capacity, {@link WriteCapacityFilter} refuses writes before the API key check and the body.
 */
@Singleton
public class WriteAcceptance {

    /** Seconds an overloaded node asks a client to wait. */
    static final int RETRY_AFTER_SECONDS = 1;

    private final ExecutorService blocking;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder refused = new LongAdder();

    public WriteAcceptance(@Named(TaskExecutors.BLOCKING) ExecutorService blocking, RequestLogSettings settings) {
        this.blocking = blocking;
        this.maxInFlight = settings.getMaxInFlight();
    }

    /** Writes of this node accepted for validation and not answered yet (Prometheus {@code writes_in_flight}). */
    public int inFlight() {
        return inFlight.get();
    }

    /** Writes this node refused at capacity since start (Prometheus {@code writes_refused_at_capacity_total}). */
    public long refused() {
        return refused.sum();
    }

    /**
     * The route's answer: {@code route} binds and validates the write and returns the future of
     * {@link WriteRequestLog#submit}; at capacity, the 503 instead (thrown, {@code route} not run).
     */
    public CompletableFuture<Envelopes.WriteAccepted> accept(Supplier<CompletableFuture<String>> route) {
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            throw refusal();
        }
        try {
            CompletableFuture<Envelopes.WriteAccepted> answer = answer(route);
            answer.whenComplete((a, e) -> inFlight.decrementAndGet());
            return answer;
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            throw e;
        }
    }

    /** Whether a write sent now would be refused ({@link WriteCapacityFilter} refuses it before it is read). */
    boolean atCapacity() {
        return inFlight.get() >= maxInFlight;
    }

    /** The 503 of a write refused at capacity, counted. */
    ApiException refusal() {
        refused.increment();
        return new ApiException(HttpStatus.SERVICE_UNAVAILABLE,
                List.of("Service unavailable: this node is at capacity (" + maxInFlight + " writes in flight); nothing was"
                        + " accepted, retry after " + RETRY_AFTER_SECONDS + " second"),
                Map.of("Retry-After", Integer.toString(RETRY_AFTER_SECONDS)));
    }

    private CompletableFuture<Envelopes.WriteAccepted> answer(Supplier<CompletableFuture<String>> route) {
        Optional<HttpRequest<Object>> request = ServerRequestContext.currentRequest();
        Supplier<CompletableFuture<String>> write = request
                .flatMap(IdempotencyKey::of)
                .<Supplier<CompletableFuture<String>>>map(key -> () -> key.during(route))
                .orElse(route);
        // the request's context goes along to the blocking pool: its id for the request log row and for log lines
        CompletableFuture<String> requestId = DatabaseReads.without(write)
                .orElseGet(() -> CompletableFuture.supplyAsync(PropagatedContext.wrapCurrent(write), blocking).thenCompose(f -> f));
        // the connection's own event loop, wherever the route runs (a filter that read the database continues the route
        // on the blocking pool)
        Executor loop = request.filter(NettyHttpRequest.class::isInstance)
                .map(r -> (Executor) ((NettyHttpRequest<?>) r).getChannelHandlerContext().channel().eventLoop()).orElse(null);
        return loop == null ? requestId.thenApply(Envelopes.WriteAccepted::of) : requestId.thenApplyAsync(Envelopes.WriteAccepted::of, loop);
    }
}
