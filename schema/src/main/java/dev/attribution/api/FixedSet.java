package dev.attribution.api;

import java.util.List;
import java.util.Locale;

/**
 * Fields with a fixed set of values (spec 2.2.9 and 7.2.2): another value is a 400 naming the field, echoing the
 * value and listing what that operation accepts. A refused value is never read as absent.
 */
public final class FixedSet {

    private FixedSet() {
    }

    /** Matches exactly (case-sensitive), e.g. {@code Invalid frequency 'WEEKLY'. Accepted values: DAILY, ONE_TIME}. */
    public static String require(String field, String value, List<String> accepted) {
        if (value != null && accepted.contains(value)) {
            return value;
        }
        throw ApiException.badRequest("Invalid " + field + " '" + value + "'. Accepted values: " + String.join(", ", accepted));
    }

    /** Same rule, matching without regard to case and answering the canonical spelling. */
    public static String requireIgnoreCase(String field, String value, List<String> accepted) {
        if (value != null) {
            for (String a : accepted) {
                if (a.equalsIgnoreCase(value.trim())) {
                    return a;
                }
            }
        }
        throw ApiException.badRequest("Invalid " + field + " '" + value + "'. Accepted values: " + String.join(", ", accepted));
    }

    /** Enum flavour of {@link #require}. */
    public static <E extends Enum<E>> E require(String field, String value, Class<E> type) {
        List<String> names = java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name).toList();
        return Enum.valueOf(type, require(field, value, names));
    }
}
