package dev.attribution.command.requests;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The personal values of an erased lead as PostgreSQL regular expressions (case-insensitive, {@code ~* ANY}), for
 * finding the stored copies an erasure must redact beyond the lead's own rows: request-log payloads and results,
 * outbox events (issue 29, docs/clickhouse-schema.md "Erasure"). Each value matches only as a whole token — an email
 * not inside a longer address, a phone's digits with up to three separator characters between them and no digit
 * around, the lead id and IPs not inside a longer id — so other leads' rows are left alone.
 */
public record Redaction(List<String> patterns) {

    /** What a redacted payload or result becomes. */
    public static final String REDACTED = "{\"redacted\":true}";

    public static Redaction of(String leadId, String email, List<String> phones, List<String> ips) {
        List<String> p = new ArrayList<>();
        p.add(token(leadId, "a-z0-9_-"));
        if (email != null && !email.isBlank()) {
            p.add(token(email.trim(), "a-z0-9._%+@-"));
        }
        for (String ip : ips) {
            p.add(token(ip, "a-z0-9.:"));
        }
        for (String phone : phones) {
            String digits = phone.replaceAll("[^0-9]", "");
            if (digits.length() >= 7) {
                p.add("(^|[^0-9])" + String.join("[^0-9]{0,3}", digits.split("")) + "($|[^0-9])");
            }
        }
        return new Redaction(List.copyOf(p));
    }

    /** {@code value} literally, not preceded or followed by a character of {@code word}. */
    private static String token(String value, String word) {
        return "(^|[^" + word + "])" + value.replaceAll("([\\\\.^$|?*+()\\[\\]{}])", "\\\\$1") + "($|[^" + word + "])";
    }

    public java.sql.Array array(Connection c) throws SQLException {
        return c.createArrayOf("text", patterns.toArray());
    }
}
