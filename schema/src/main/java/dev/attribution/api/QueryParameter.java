package dev.attribution.api;

/**
 * The query parameters of an endpoint (spec 4.0), declared as an interface extending this one whose constants are
 * the parameters: the constant's name is the parameter's name, its {@link Spec} what it holds, e.g.
 * <pre>{@code
 * interface Query extends QueryParameter.Paged {
 *     Spec emails = Spec.list(50, "buyers' emails");
 * }
 * }</pre>
 * An interface may extend others (a shared filter's parameters, {@link Paged}); theirs come first. That interface,
 * named by {@link QueryParameters} on the controller method, is the endpoint's single declaration of
 * its query string: {@link QueryParams} refuses what it does not list (on enforcing endpoints), takes list maximums
 * and integer ranges from it and refuses to read an undeclared name; the endpoint's MCP tool offers exactly these
 * parameters in its input schema.
 */
public interface QueryParameter {

    /**
     * The value forms of spec 4.0. {@code LIST} is one string of comma-separated double-quoted values.
     * {@code REFUSED} names a parameter the endpoint answers with its own message (the description) instead of
     * {@code Unknown parameter}; it is not offered to clients.
     */
    enum Kind { LIST, STRING, INTEGER, BOOLEAN, DATE, REFUSED }

    /**
     * What a parameter holds: {@code LIST} with at most {@code max} values, {@code INTEGER} in {@code [min, max]},
     * a short description for clients, whether the endpoint requires it ({@link #required()}) and the values it
     * allows ({@link #oneOf}, empty: any). The OpenAPI document and the MCP tool schemas publish all of it; the
     * endpoint's own checks answer a missing or unknown value with the spec's message.
     */
    record Spec(Kind kind, int min, int max, String description, boolean plusIsLiteral, boolean isRequired,
                java.util.List<String> values) {

        public Spec {
            values = java.util.List.copyOf(values);
        }

        public Spec(Kind kind, int min, int max, String description, boolean plusIsLiteral) {
            this(kind, min, max, description, plusIsLiteral, false, java.util.List.of());
        }

        public Spec(Kind kind, int min, int max, String description) {
            this(kind, min, max, description, false);
        }

        /** The same parameter, required by its endpoint. */
        public Spec required() {
            return new Spec(kind, min, max, description, plusIsLiteral, true, values);
        }

        /** The same parameter, allowing only {@code allowed} (for a list: each of its values). */
        public Spec oneOf(java.util.Collection<?> allowed) {
            return new Spec(kind, min, max, description, plusIsLiteral, isRequired,
                    allowed.stream().map(String::valueOf).toList());
        }

        public Spec oneOf(Object... allowed) {
            return oneOf(java.util.Arrays.asList(allowed));
        }

        public static Spec list(int max, String description) {
            return new Spec(Kind.LIST, 0, max, description);
        }

        public static Spec string(String description) {
            return new Spec(Kind.STRING, 0, 0, description);
        }

        /**
         * One email address or phone number. A raw {@code +} in its value is a plus, not a space: form decoding
         * would turn {@code ada+news@example.com} or {@code +15550001111}, as clients write them unencoded, into a
         * value no address or number can hold (see {@link QueryParams}).
         */
        public static Spec contact(String description) {
            return new Spec(Kind.STRING, 0, 0, description, true);
        }

        /**
         * A list of emails or phone numbers: {@link #list} whose quoted values keep a raw {@code +} ({@link #contact});
         * between the values, and in unquoted values, {@code +} is a space as in any other parameter.
         */
        public static Spec contacts(int max, String description) {
            return new Spec(Kind.LIST, 0, max, description, true);
        }

        public static Spec integer(int min, int max, String description) {
            return new Spec(Kind.INTEGER, min, max, description);
        }

        public static Spec bool(String description) {
            return new Spec(Kind.BOOLEAN, 0, 0, description);
        }

        /** A parameter refused with {@code message}, checked before any other rule of the query string. */
        public static Spec refused(String message) {
            return new Spec(Kind.REFUSED, 0, 0, message);
        }

        /** A date {@code yyyy-MM-dd} or a date-time (spec 2.2), in the account's zone unless an offset is written. */
        public static Spec date(String description) {
            return new Spec(Kind.DATE, 0, 0, description);
        }
    }

    /** The page parameters of the list endpoints (spec 4.0), for their declarations to extend. */
    interface Paged extends QueryParameter {
        Spec pageSize = Spec.integer(1, 250, "items per page (default 50)");
        Spec pageId = Spec.string("the nextPageId of the previous page");
    }
}
