package dev.attribution.api;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;

import java.util.List;

/** Builds the error envelope responses; the one place a status and messages become a response. */
public final class ErrorResponses {

    private ErrorResponses() {
    }

    public static MutableHttpResponse<Envelopes.Error> of(ApiException e) {
        MutableHttpResponse<Envelopes.Error> response = HttpResponse.<Envelopes.Error>status(e.status())
                .contentType(MediaType.APPLICATION_JSON_TYPE)
                .body(Envelopes.Error.of(e.messages()));
        e.headers().forEach(response::header);
        return response;
    }

    public static MutableHttpResponse<Envelopes.Error> badRequest(String message) {
        return of(ApiException.badRequest(List.of(message)));
    }
}
