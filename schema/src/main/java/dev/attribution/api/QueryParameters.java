package dev.attribution.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares on a controller method the query parameters its endpoint accepts: {@code value} is the endpoint's
 * {@link QueryParameter} interface, {@code enforcing} marks the enforcing endpoints of spec 4.0 (unknown and repeated
 * parameters are refused). The method receives them as a {@link QueryParams} argument ({@link QueryParamsBinder});
 * the MCP surface reads the same annotation from the route's compile-time metadata. A method without it accepts no
 * query parameter (lenient: whatever is sent is ignored).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface QueryParameters {

    Class<? extends QueryParameter> value() default None.class;

    boolean enforcing() default false;

    /** No query parameter. */
    interface None extends QueryParameter {
    }
}
