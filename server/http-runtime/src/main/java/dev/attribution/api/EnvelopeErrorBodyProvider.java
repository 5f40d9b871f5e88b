package dev.attribution.api;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.JsonErrorResponseBodyProvider;
import jakarta.inject.Singleton;

import java.util.ArrayList;
import java.util.List;

/**
 * The error envelope of spec 7.1 for the errors Micronaut answers itself, before any route or {@link ApiErrorHandler}
 * runs (a request line or headers too long, a request that cannot be decoded): {@code {result:"ERROR",
 * message:[...]}} instead of Micronaut's default JSON error body.
 */
@Singleton
@Replaces(bean = JsonErrorResponseBodyProvider.class)
public class EnvelopeErrorBodyProvider implements JsonErrorResponseBodyProvider<Envelopes.Error> {

    @Override
    public Envelopes.Error body(ErrorContext context, HttpResponse<?> response) {
        List<String> messages = new ArrayList<>();
        context.getErrors().forEach(e -> messages.add(e.getMessage()));
        if (messages.isEmpty()) {
            messages.add(response.reason() == null ? response.getStatus().getReason() : response.reason());
        }
        return Envelopes.Error.of(messages);
    }
}
