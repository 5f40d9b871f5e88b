package dev.attribution.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;

/** The envelopes of spec 2.1, one record each. */
public final class Envelopes {

    private Envelopes() {
    }

    /** Success envelope of an accepted write. */
    public record WriteAccepted(@JsonProperty("request_id") String requestId, String result) {
        public static WriteAccepted of(String requestId) {
            return new WriteAccepted(requestId, "OK");
        }
    }

    /** Error envelope: {@code result} is always {@code ERROR}. */
    public record Error(String result, List<String> message) {
        public static Error of(List<String> messages) {
            return new Error("ERROR", messages);
        }
    }

    /** List envelope of a GET; {@code nextPageId} is null on the last page. */
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Page<T>(List<T> result, String nextPageId,
                          @io.micronaut.core.annotation.NonNull @JsonProperty("request_id") String requestId) {
    }

    /** Single-object envelope (reports, request status, journey). */
    public record Single<T>(T result, @JsonProperty("request_id") String requestId) {
    }
}
