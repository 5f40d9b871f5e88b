package dev.attribution.command.requests;

import dev.attribution.api.DatabaseReads;
import dev.attribution.api.Envelopes;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.context.ServerRequestContext;
import io.micronaut.http.server.netty.NettyHttpRequest;
import io.micronaut.scheduling.TaskExecutors;
import jakarta.inject.Named;
import jakarta.inject.Singleton;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
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
 */
@Singleton
public class WriteAcceptance {

    private final ExecutorService blocking;

    public WriteAcceptance(@Named(TaskExecutors.BLOCKING) ExecutorService blocking) {
        this.blocking = blocking;
    }

    /** The route's answer: {@code write} returns the future of {@link WriteRequestLog#submit}. */
    public CompletableFuture<Envelopes.WriteAccepted> accept(Supplier<CompletableFuture<String>> route) {
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
