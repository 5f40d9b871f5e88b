package dev.attribution.command.requests;

import dev.attribution.api.ApiException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.context.ServerRequestContext;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The optional {@code Idempotency-Key} header of an asynchronous write (issue 29; as Stripe and the IETF draft
 * "The Idempotency-Key HTTP Header Field" define it): the same key with the same request returns the first
 * {@code request_id} and is applied once; the same key with a different request is refused (400). Keys are scoped to
 * the account and remembered as long as the request row is kept (the retention window, {@link LogRetention}).
 *
 * <p>{@code requestHash} identifies the request as sent — method, path, query and body — not the payload stored in the
 * log, which holds values the server fills in (dates, generated ids) and would differ between a write and its retry.
 * The key travels from {@link WriteAcceptance} to {@link WriteRequestLog#submit} on the thread that runs the write.
 */
public record IdempotencyKey(String key, String requestHash) {

    public static final String HEADER = "Idempotency-Key";
    static final int MAX_LENGTH = 255;
    private static final ThreadLocal<IdempotencyKey> CURRENT = new ThreadLocal<>();

    /** The request's key, if it sent one; 400 when the header is not 1–255 visible ASCII characters. */
    public static Optional<IdempotencyKey> of(HttpRequest<?> request) {
        String key = request.getHeaders().get(HEADER);
        if (key == null) {
            return Optional.empty();
        }
        if (key.isEmpty() || key.length() > MAX_LENGTH || !key.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            throw ApiException.badRequest(HEADER + " must be 1 to " + MAX_LENGTH + " visible ASCII characters");
        }
        String body = request.getBody(String.class).orElse("");
        String query = request.getUri().getRawQuery();
        return Optional.of(new IdempotencyKey(key, sha256(request.getMethodName() + ' ' + request.getPath()
                + (query == null ? "" : "?" + query) + '\n' + body)));
    }

    /** Runs {@code write} with this key visible to {@link #current()} on the running thread. */
    <T> T during(Supplier<T> write) {
        IdempotencyKey outer = CURRENT.get();
        CURRENT.set(this);
        try {
            return write.get();
        } finally {
            CURRENT.set(outer);
        }
    }

    /**
     * The key of the write running on this thread ({@link #during}), else the key of the HTTP request this thread
     * serves (routes that write on the request's own thread), or null. A request carries one write.
     */
    static IdempotencyKey current() {
        IdempotencyKey key = CURRENT.get();
        return key != null ? key : ServerRequestContext.currentRequest().flatMap(IdempotencyKey::of).orElse(null);
    }

    /** The refusal of a key reused for another request. */
    ApiException reusedForAnotherRequest() {
        return ApiException.badRequest(HEADER + " " + key + " was already used for a different request; "
                + "send a new key for a new write, or the same request to retry it");
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
