package dev.attribution.api.auth;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The role a key needs to call this endpoint (spec 5). Checked by {@link ApiKeyFilter} on every request.
 * An endpoint without it needs a valid key and no particular role.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD})
public @interface RequiresRole {
    String value();
}
