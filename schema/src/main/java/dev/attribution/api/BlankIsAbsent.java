package dev.attribution.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * On an enum component of a command record ({@link CommandJson}): the value is trimmed and a blank one is none, as
 * {@link JsonBody#nonBlankString} reads it (clients such as n8n send {@code ""} for a field left empty).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT, ElementType.METHOD})
public @interface BlankIsAbsent {
}
