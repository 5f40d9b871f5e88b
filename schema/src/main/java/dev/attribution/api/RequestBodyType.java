package dev.attribution.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares on a controller method the shape of its JSON request body: a record whose components are the fields the
 * endpoint reads (JSON name from {@code @JsonProperty} when given, description from {@code @JsonPropertyDescription},
 * required with {@code @JsonProperty(required = true)}, fixed values as Java enums). {@code enforcing} marks bodies
 * whose other fields are refused with {@code Unknown field: <name>} (the endpoint derives that set from the same
 * record, {@link JsonBody#fieldsOf}). The MCP surface generates the tool's {@code body} schema from the record.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RequestBodyType {

    Class<? extends Record> value();

    boolean enforcing() default false;

    /**
     * A body this endpoint accepts, as a client would send it (the OpenAPI document's example, which Swagger UI's
     * "Try it out" sends); OpenApiDocumentTest sends each one and expects it accepted and processed.
     */
    String example() default "";
}
