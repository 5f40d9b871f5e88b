package dev.attribution.api;

import io.micronaut.core.convert.exceptions.ConversionErrorException;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.codec.CodecException;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import io.micronaut.web.router.exceptions.UnsatisfiedRouteException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Every failure becomes the error envelope of spec 7.1. Known refusals keep their status; malformed input is a
 * 400; an unknown route is a 404; anything unexpected is logged and answered 500 without internals.
 */
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

    @Error(global = true, exception = Throwable.class)
    public HttpResponse<Envelopes.Error> unexpected(HttpRequest<?> request, Throwable e) {
        LOG.error("Unhandled error on {} {}", request.getMethodName(), request.getPath(), e);
        return ErrorResponses.of(new ApiException(HttpStatus.INTERNAL_SERVER_ERROR,
                List.of("Internal error"), java.util.Map.of()));
    }
}
