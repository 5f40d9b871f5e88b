package dev.attribution.api;

import io.micronaut.core.annotation.AnnotationMetadata;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The query parameters an endpoint declares ({@link QueryParameters} on its method), by name in declaration order,
 * and whether the endpoint enforces them (spec 4.0).
 */
public record QueryDeclaration(boolean enforcing, Map<String, QueryParameter.Spec> parameters) {

    public static final QueryDeclaration NONE = new QueryDeclaration(false, Map.of());

    public QueryDeclaration {
        parameters = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /**
     * The constants of a {@link QueryParameter} interface, in declaration order, after those of the interfaces it
     * extends (a shared filter's or {@link QueryParameter.Paged}'s).
     */
    public static QueryDeclaration of(Class<? extends QueryParameter> type, boolean enforcing) {
        Map<String, QueryParameter.Spec> byName = new LinkedHashMap<>();
        collect(type, byName);
        return new QueryDeclaration(enforcing, byName);
    }

    private static void collect(Class<?> type, Map<String, QueryParameter.Spec> byName) {
        if (type == QueryParameter.class) {
            return;
        }
        for (Class<?> parent : type.getInterfaces()) {
            collect(parent, byName);
        }
        for (Field f : type.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == QueryParameter.Spec.class) {
                try {
                    f.setAccessible(true); // an endpoint's declaration is usually a package-private nested interface
                    byName.put(f.getName(), (QueryParameter.Spec) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    /** The declaration on a controller method, from its compile-time annotation metadata. */
    @SuppressWarnings("unchecked")
    public static QueryDeclaration of(AnnotationMetadata method) {
        if (!method.hasAnnotation(QueryParameters.class)) {
            return NONE;
        }
        Class<? extends QueryParameter> type = (Class<? extends QueryParameter>) method
                .classValue(QueryParameters.class).orElse(QueryParameters.None.class);
        return of(type, method.booleanValue(QueryParameters.class, "enforcing").orElse(false));
    }

    /** The declared parameter; an undeclared name is a programming error, not a client's. */
    QueryParameter.Spec spec(String name) {
        QueryParameter.Spec spec = parameters.get(name);
        if (spec == null) {
            throw new IllegalStateException("Query parameter '" + name + "' is read but not declared by the endpoint");
        }
        return spec;
    }

    Optional<QueryParameter.Spec> find(String name) {
        return Optional.ofNullable(parameters.get(name));
    }
}
