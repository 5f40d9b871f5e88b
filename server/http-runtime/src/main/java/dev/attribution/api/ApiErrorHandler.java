package dev.attribution.api;

import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.codec.CodecException;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import io.micronaut.http.server.exceptions.NotAcceptableException;
import io.micronaut.web.router.exceptions.UnsatisfiedRouteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;

/**
 * Every failure becomes the error envelope of spec 7.1. Known refusals keep their status; malformed input is a
 * 400; an unknown route is a 404; an unreachable store is a 503 with {@code Retry-After} ({@link DependencyOutage});
 * anything else unexpected is logged and answered 500 without internals.
 */
@ServedBy(NodeSide.EVERY_NODE)
@Controller
public class ApiErrorHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ApiErrorHandler.class);

    @Error(global = true, exception = ApiException.class)
    public HttpResponse<Envelopes.Error> api(ApiException e) {
        return ErrorResponses.of(e);
    }

    @Error(global = true, exception = ConversionErrorException.class)
    public HttpResponse<Envelopes.Error> conversion(ConversionErrorException e) {
        return ErrorResponses.badRequest("Invalid value for " + e.getArgument().getName());
    }

    @Error(global = true, exception = UnsatisfiedRouteException.class)
    public HttpResponse<Envelopes.Error> unsatisfied(UnsatisfiedRouteException e) {
        return ErrorResponses.badRequest("Missing required " + e.getArgument().getName());
    }

    @Error(global = true, exception = CodecException.class)
    public HttpResponse<Envelopes.Error> codec(CodecException e) {
        return ErrorResponses.badRequest("Malformed request body");
    }

    @Error(global = true, exception = ContentLengthExceededException.class)
    public HttpResponse<Envelopes.Error> tooLarge(ContentLengthExceededException e) {
        return ErrorResponses.of(new ApiException(HttpStatus.REQUEST_ENTITY_TOO_LARGE,
                List.of("Request body is too large"), java.util.Map.of()));
    }

    @Error(global = true, status = HttpStatus.NOT_FOUND)
    public HttpResponse<Envelopes.Error> notFound(HttpRequest<?> request) {
        return ErrorResponses.of(ApiException.notFound("Not found: " + request.getMethodName() + " " + request.getPath()));
    }

    @Error(global = true, status = HttpStatus.METHOD_NOT_ALLOWED)
    public HttpResponse<Envelopes.Error> methodNotAllowed(HttpRequest<?> request) {
        return ErrorResponses.of(new ApiException(HttpStatus.METHOD_NOT_ALLOWED,
                List.of("Method not allowed: " + request.getMethodName() + " " + request.getPath()), java.util.Map.of()));
    }

    @Error(global = true, status = HttpStatus.UNSUPPORTED_MEDIA_TYPE)
    public HttpResponse<Envelopes.Error> unsupportedMediaType(HttpRequest<?> request) {
        return ErrorResponses.of(new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                List.of("Content-Type must be application/json"), java.util.Map.of()));
    }

    /** An {@code Accept} header that rules out what the route produces (JSON; text for the tracking script): 406. */
    @Error(global = true, exception = NotAcceptableException.class)
    public HttpResponse<Envelopes.Error> notAcceptable(NotAcceptableException e) {
        return ErrorResponses.of(new ApiException(HttpStatus.NOT_ACCEPTABLE, List.of("Not acceptable: " + e.getMessage()),
                java.util.Map.of()));
    }

    /** A {@code Content-Type} naming a charset the JVM does not know, or no valid charset name at all: 415. */
    @Error(global = true, exception = UnsupportedCharsetException.class)
    public HttpResponse<Envelopes.Error> unknownCharset(UnsupportedCharsetException e) {
        return badCharset(e.getCharsetName());
    }

    @Error(global = true, exception = IllegalCharsetNameException.class)
    public HttpResponse<Envelopes.Error> illegalCharset(IllegalCharsetNameException e) {
        return badCharset(e.getCharsetName());
    }

    private static HttpResponse<Envelopes.Error> badCharset(String name) {
        return ErrorResponses.of(new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
                List.of("Unsupported charset: " + name + ". Send the body as application/json in UTF-8"), java.util.Map.of()));
    }

    @Error(global = true, exception = Throwable.class)
    public HttpResponse<Envelopes.Error> unexpected(HttpRequest<?> request, Throwable e) {
        java.util.Optional<String> down = DependencyOutage.of(e);
        if (down.isPresent()) {
            LOG.warn("{} {}: {} unavailable ({})", request.getMethodName(), request.getPath(), down.get(), rootMessage(e));
            return ErrorResponses.of(DependencyOutage.unavailable(down.get()));
        }
        LOG.error("Unhandled error on {} {}", request.getMethodName(), request.getPath(), e);
        return ErrorResponses.of(new ApiException(HttpStatus.INTERNAL_SERVER_ERROR,
                List.of("Internal error"), java.util.Map.of()));
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }
}
