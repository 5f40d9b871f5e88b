package dev.attribution.api;

import io.micronaut.http.HttpParameters;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
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
 * <p>
 * Values are form-decoded ({@code +} is a space), except those of parameters declared as emails or phone numbers
 * ({@link QueryParameter.Spec#contact}, {@link QueryParameter.Spec#contacts}): there a raw {@code +} in the value
 * (inside the quotes of a list) stays a plus, because clients put addresses such as {@code ada+news@example.com} and
 * numbers such as {@code +15550001111} into query strings unencoded (docs/clients.md), and no address or number
 * holds a space.
 */
public final class QueryParams {

    private final HttpParameters parameters;
    private final String rawQuery;
    private final QueryDeclaration declaration;

    private QueryParams(HttpParameters parameters, String rawQuery, QueryDeclaration declaration) {
        this.parameters = parameters;
        this.rawQuery = rawQuery;
        this.declaration = declaration;
    }

    /** {@link #of(HttpParameters, String, QueryDeclaration)} for parameters that were never a raw query string. */
    public static QueryParams of(HttpParameters parameters, QueryDeclaration declaration) {
        return of(parameters, null, declaration);
    }

    /**
     * The query string read by {@code declaration}; on an enforcing endpoint (4.0) {@code Unknown parameter: <name>}
     * and {@code Duplicate parameter: <name>}. {@code rawQuery} is the query as sent (null when there is none).
     */
    public static QueryParams of(HttpParameters parameters, String rawQuery, QueryDeclaration declaration) {
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
        return new QueryParams(parameters, rawQuery, declaration);
    }

    public QueryDeclaration declaration() {
        return declaration;
    }

    public Optional<String> string(String name) {
        QueryParameter.Spec spec = declaration.spec(name);
        String value = spec.plusIsLiteral() && rawQuery != null ? rawValue(name, spec.kind() == QueryParameter.Kind.LIST)
                : parameters.get(name);
        return Optional.ofNullable(value).map(String::trim).filter(s -> !s.isEmpty());
    }

    /**
     * The first value of {@code name} in the raw query, decoded with {@code +} kept as a plus: everywhere in a single
     * email or phone, and inside the double quotes of a list (outside them, between values, {@code +} is still a
     * space, as form encoders write {@code ", "}). The form-decoded value when the raw one is not well-formed.
     */
    private String rawValue(String name, boolean list) {
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            try {
                if (URLDecoder.decode(key, StandardCharsets.UTF_8).equals(name)) {
                    String raw = eq < 0 ? "" : pair.substring(eq + 1);
                    return URLDecoder.decode(list ? plusesInQuotes(raw) : raw.replace("+", "%2B"), StandardCharsets.UTF_8);
                }
            } catch (IllegalArgumentException malformed) {
                return parameters.get(name);
            }
        }
        return parameters.get(name);
    }

    /** {@code raw} with every {@code +} between double quotes (raw or {@code %22}) escaped as {@code %2B}. */
    private static String plusesInQuotes(String raw) {
        StringBuilder out = new StringBuilder(raw.length() + 8);
        boolean quoted = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '%' && raw.startsWith("22", i + 1)) {
                quoted = !quoted;
            } else if (c == '+' && quoted) {
                out.append("%2B");
                continue;
            }
            out.append(c);
        }
        return out.toString();
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

    /**
     * A list parameter ({@code "a","b"}), at most its declared maximum of values; empty list when absent. A list sent
     * with no value in it ({@code ids=}, {@code ids=""}, {@code ids=","}) is refused with {@link #emptyList}, never
     * read as "no filter": a client that builds the list from an empty selection would otherwise get everything
     * (docs/clients.md "Empty list parameters").
     */
    public List<String> list(String name) {
        int max = declaration.spec(name).max();
        Optional<String> raw = string(name);
        if (raw.isEmpty()) {
            if (parameters.get(name) != null) {
                throw ApiException.badRequest(emptyList(name));
            }
            return List.of();
        }
        if (raw.get().chars().filter(c -> c == '"').count() % 2 == 1) {
            throw ApiException.badRequest(malformedList(name));
        }
        List<String> values = splitList(raw.get());
        if (values.isEmpty()) {
            throw ApiException.badRequest(emptyList(name));
        }
        if (values.size() > max) {
            throw ApiException.badRequest("The maximum number of " + name + " to be provided is " + max);
        }
        return values;
    }

    /** The message of a list parameter whose double quotes do not pair up (spec 4.0: {@code "a","b"}). */
    public static String malformedList(String name) {
        return "Malformed list parameter: " + name + " (unpaired double quote)";
    }

    /** The message of a list parameter sent without any value. */
    public static String emptyList(String name) {
        return "Empty list parameter: " + name;
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
