package dev.attribution.api;

import io.micronaut.http.HttpParameters;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The query string of a request, read by the rules of spec 4.0: list parameters as one string of comma-separated
 * double-quoted values with a per-parameter maximum; on enforcing endpoints unknown or repeated parameters are
 * refused, elsewhere a repeated parameter takes its first value.
 */
public final class QueryParams {

    private final HttpParameters parameters;

    private QueryParams(HttpParameters parameters) {
        this.parameters = parameters;
    }

    /** Lenient reading: unknown parameters ignored, first value wins. */
    public static QueryParams lenient(HttpParameters parameters) {
        return new QueryParams(parameters);
    }

    /** Enforcing reading (4.0): {@code Unknown parameter: <name>} and {@code Duplicate parameter: <name>}. */
    public static QueryParams strict(HttpParameters parameters, Set<String> allowed) {
        for (String name : parameters.names()) {
            if (!allowed.contains(name)) {
                throw ApiException.badRequest("Unknown parameter: " + name);
            }
            if (parameters.getAll(name).size() > 1) {
                throw ApiException.badRequest("Duplicate parameter: " + name);
            }
        }
        return new QueryParams(parameters);
    }

    public Optional<String> string(String name) {
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

    /** An integer in {@code [min, max]}, or the default when absent. */
    public int intInRange(String name, int min, int max, int defaultValue) {
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

    /** A list parameter ({@code "a","b"}), at most {@code max} values; empty list when absent. */
    public List<String> list(String name, int max) {
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
