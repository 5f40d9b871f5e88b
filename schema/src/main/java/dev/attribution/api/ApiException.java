package dev.attribution.api;

import io.micronaut.http.HttpStatus;

import java.util.List;
import java.util.Map;

/**
 * A request the API refuses. Thrown anywhere; rendered once, by {@link ApiExceptionHandler},
 * as the error envelope of spec 7.1: {@code {"result":"ERROR","message":[...]}}.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final List<String> messages;
    private final Map<String, String> headers;

    public ApiException(HttpStatus status, List<String> messages, Map<String, String> headers) {
        super(String.join("; ", messages));
        this.status = status;
        this.messages = List.copyOf(messages);
        this.headers = Map.copyOf(headers);
    }

    public static ApiException badRequest(String... messages) {
        return new ApiException(HttpStatus.BAD_REQUEST, List.of(messages), Map.of());
    }

    public static ApiException badRequest(List<String> messages) {
        return new ApiException(HttpStatus.BAD_REQUEST, messages, Map.of());
    }

    public static ApiException unauthorized() {
        return new ApiException(HttpStatus.UNAUTHORIZED, List.of("Unauthorized: invalid or missing Api-Key"), Map.of());
    }

    public static ApiException forbidden(List<String> messages) {
        return new ApiException(HttpStatus.FORBIDDEN, messages, Map.of());
    }

    public static ApiException notFound(String message) {
        return new ApiException(HttpStatus.NOT_FOUND, List.of(message), Map.of());
    }

    public HttpStatus status() {
        return status;
    }

    public List<String> messages() {
        return messages;
    }

    public Map<String, String> headers() {
        return headers;
    }
}
