package dev.attribution.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The side serving a controller's routes (on the class) or one route of it (on the method, overriding the class).
 * Every controller declares it: a node's roles switch routes by this declaration, never by a class's package, so
 * moving a class does not change what a split deployment serves.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
public @interface ServedBy {
    NodeSide value();
}
