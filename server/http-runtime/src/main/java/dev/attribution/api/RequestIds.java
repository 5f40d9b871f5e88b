package dev.attribution.api;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.context.ServerRequestContext;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Opaque identifiers: a time-ordered prefix (milliseconds) followed by random bits, so ids sort by
 * creation and cannot be guessed. Used for request ids and the ids of created resources.
 * <p>
 * Every HTTP request gets its id when it arrives ({@link #assign}, the server's first filter): the access log line,
 * the {@code request_id} of every log line the request causes ({@link #MDC_KEY}), the {@code request_id} of its
 * answer ({@link #current}) and, for a write, the id of its row in the request log ({@link #forWrite}) and so of the
 * worker's log lines when it is applied (docs/operations.md "Access log").
 */
public final class RequestIds {

    /** The request attribute holding the request's id. */
    public static final String ATTRIBUTE = "attribution.request-id";

    /** The MDC key (a field of every JSON log line) naming the request a log line belongs to. */
    public static final String MDC_KEY = "request_id";

    /** A request's id, and whether a write of the request took it as its request log id. */
    private record Assigned(String id, AtomicBoolean taken) {
    }

    /**
     * One generator per thread: the default {@code NativePRNG} instances all share one locked state, which the
     * request threads and the workers contended for (JFR, 2026-11-24). DRBG instances are independent, each seeded
     * from the system's entropy.
     */
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(RequestIds::generator);

    private RequestIds() {
    }

    /** A new id such as {@code 0193a8f2c4d1-9f0c2a7b1e3d5f60}. */
    public static String next() {
        byte[] random = new byte[8];
        RANDOM.get().nextBytes(random);
        return Long.toHexString(System.currentTimeMillis()) + "-" + HexFormat.of().formatHex(random);
    }

    private static SecureRandom generator() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }

    /** Gives {@code request} a new id, kept on it; returns the id. */
    public static String assign(HttpRequest<?> request) {
        String id = next();
        request.setAttribute(ATTRIBUTE, new Assigned(id, new AtomicBoolean()));
        return id;
    }

    /** The id {@link #assign} gave {@code request}, if any. */
    public static Optional<String> of(HttpRequest<?> request) {
        return request.getAttribute(ATTRIBUTE, Assigned.class).map(Assigned::id);
    }

    /** The id of the request this thread answers (the {@code request_id} of its answer); a new id outside one. */
    public static String current() {
        return ServerRequestContext.currentRequest().flatMap(RequestIds::of).orElseGet(RequestIds::next);
    }

    /**
     * The id of a write's row in the request log: the request's own id for its first write (so the answer, the access
     * log and the worker that applies it share one id), a new id for any further write of the same request or outside
     * a request.
     */
    public static String forWrite() {
        return ServerRequestContext.currentRequest()
                .flatMap(r -> r.getAttribute(ATTRIBUTE, Assigned.class))
                .filter(a -> a.taken().compareAndSet(false, true))
                .map(Assigned::id)
                .orElseGet(RequestIds::next);
    }

    /** A new id with a resource prefix, e.g. {@code ld_…} for a lead. */
    public static String next(String prefix) {
        return prefix + next();
    }
}
