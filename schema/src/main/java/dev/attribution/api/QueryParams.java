package dev.attribution.api;

import io.micronaut.http.HttpParameters;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The query string of a request, read by the rules of spec 4.0 and by the endpoint's {@link QueryDeclaration}: list
 * parameters as one string of comma-separated double-quoted values with the declared maximum, integers in the
 * declared range; on enforcing endpoints unknown or repeated parameters are refused, elsewhere a repeated parameter
 * takes its first value. Reading a name the endpoint does not declare is a programming error
 * ({@link IllegalStateException}), so what an endpoint reads is what it declares.
 */
public final class QueryParams {

    private final HttpParameters parameters;
    private final QueryDeclaration declaration;

    private QueryParams(HttpParameters parameters, QueryDeclaration declaration) {
        this.parameters = parameters;
        this.declaration = declaration;
    }

    /**
     * The query string read by {@code declaration}; on an enforcing endpoint (4.0) {@code Unknown parameter: <name>}
     * and {@code Duplicate parameter: <name>}.
     */
    public static QueryParams of(HttpParameters parameters, QueryDeclaration declaration) {
        for (String name : parameters.names()) {
            declaration.find(name).filter(s -> s.kind() == QueryParameter.Kind.REFUSED).ifPresent(s -> {
                throw ApiException.badRequest(s.description());
            });
        }
        if (declaration.enforcing()) {
            for (String name : parameters.names()) {
                if (declaration.find(name).isEmpty()) {
                    throw ApiException.badRequest("Unknown parameter: " + name);
                }
                if (parameters.getAll(name).size() > 1) {
                    throw ApiException.badRequest("Duplicate parameter: " + name);
                }
            }
        }
        return new QueryParams(parameters, declaration);
    }

    public QueryDeclaration declaration() {
        return declaration;
    }

    public Optional<String> string(String name) {
        declaration.spec(name);
        return Optional.ofNullable(parameters.get(name)).map(String::trim).filter(s -> !s.isEmpty());
    }

    public String required(String name) {
        return string(name).orElseThrow(() -> ApiException.badRequest("Missing required parameter: " + name));
    }

    public Optional<Boolean> bool(String name) {
        return string(name).map(v -> switch (v.toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw ApiException.badRequest("Invalid " + name + " '" + v + "'. Accepted values: true, false");
        });
    }

    /** An integer in its declared {@code [min, max]}, or the default when absent. */
    public int intInRange(String name, int defaultValue) {
        QueryParameter.Spec spec = declaration.spec(name);
        int min = spec.min();
        int max = spec.max();
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return defaultValue;
        }
        try {
            long v = Long.parseLong(raw.get());
            if (v < min || v > max) {
                throw ApiException.badRequest(name + " must be between " + min + " and " + max);
            }
            return (int) v;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest(name + " must be an integer between " + min + " and " + max);
        }
    }

    /** A list parameter ({@code "a","b"}), at most its declared maximum of values; empty list when absent. */
    public List<String> list(String name) {
        int max = declaration.spec(name).max();
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            return List.of();
        }
        List<String> values = splitList(raw.get());
        if (values.size() > max) {
            throw ApiException.badRequest("The maximum number of " + name + " to be provided is " + max);
        }
        return values;
    }

    /** Lower bound of a filter date (2.2.4), in the account's zone when no offset is written. */
    public Optional<Instant> lowerBound(String name, ZoneId zone) {
        return string(name).map(v -> ApiDates.parse(v).toLowerBound(zone));
    }

    /** Upper bound of a filter date (2.2.4). */
    public Optional<Instant> upperBound(String name, ZoneId zone) {
        return string(name).map(v -> ApiDates.parse(v).toUpperBound(zone));
    }

    /** Splits {@code "a","b,c",d} into {@code a}, {@code b,c}, {@code d}: commas inside quotes belong to the value. */
    static List<String> splitList(String raw) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                add(out, current);
            } else {
                current.append(c);
            }
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder current) {
        String v = current.toString().trim();
        if (!v.isEmpty()) {
            out.add(v);
        }
        current.setLength(0);
    }
}
