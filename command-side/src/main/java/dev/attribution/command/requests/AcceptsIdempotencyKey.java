package dev.attribution.command.requests;

import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.enums.ParameterIn;
import io.swagger.v3.oas.annotations.media.Schema;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks an asynchronous write route in the OpenAPI document as taking the optional {@link IdempotencyKey} header; the
 * header itself is read for every request-log write ({@link WriteRequestLog#submit}), marked or not.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
@Parameter(in = ParameterIn.HEADER, name = IdempotencyKey.HEADER, required = false,
        schema = @Schema(type = "string", minLength = 1, maxLength = 255, pattern = "^[\\x21-\\x7e]+$"),
        description = "Optional. A retry with the same key and the same request returns the first request_id and is "
                + "applied once; the same key on a different request is refused with 400. Keys belong to the account and "
                + "are remembered as long as the request's status (attribution.retention.requests). docs/clients.md "
                + "\"Retrying a write safely\".")
public @interface AcceptsIdempotencyKey {
}
