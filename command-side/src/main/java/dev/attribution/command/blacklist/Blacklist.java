package dev.attribution.command.blacklist;

import dev.attribution.api.ApiException;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The contact blacklist of erased leads (spec 3.1, 3.2, 7.2.8). Every write that carries an email or phone (leads,
 * orders, carts, calls, subscriptions, clicks) calls {@link #check} in its {@code *Writes} class before
 * {@code WriteRequestLog.accept}: a blacklisted contact is refused with 400 and no {@code request_id} is issued.
 * Emails compare case-insensitively, phones by their digits.
 */
@Singleton
public class Blacklist {

    public static final String MESSAGE =
            "The event was discarded because an email or phone number it carries is blacklisted for this account.";

    private final JdbcOperations jdbc;

    public Blacklist(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** 400 {@link #MESSAGE} when {@code email} (may be null) or one of {@code phones} is blacklisted. */
    @Transactional(readOnly = true)
    public void check(String accountId, String email, Collection<String> phones) {
        List<String> emails = email == null || email.isBlank() ? List.of() : List.of(normalizeEmail(email));
        List<String> digits = phones == null ? List.of() : phones.stream().filter(Objects::nonNull)
                .map(Blacklist::digits).filter(d -> !d.isEmpty()).toList();
        if (emails.isEmpty() && digits.isEmpty()) {
            return;
        }
        boolean listed = jdbc.prepareStatement("""
                SELECT EXISTS (SELECT 1 FROM contact_blacklist WHERE account_id = ?
                  AND ((kind = 'EMAIL' AND value = ANY(?)) OR (kind = 'PHONE' AND value = ANY(?))))""", ps -> {
            ps.setString(1, accountId);
            ps.setArray(2, ps.getConnection().createArrayOf("text", emails.toArray()));
            ps.setArray(3, ps.getConnection().createArrayOf("text", digits.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        });
        if (listed) {
            throw ApiException.badRequest(MESSAGE);
        }
    }

    /** Convenience for writes carrying emails only. */
    public void checkEmail(String accountId, String email) {
        check(accountId, email, List.of());
    }

    /** Blacklists contacts on the caller's connection (the erasure of {@code DELETE /leads}). */
    public static void add(Connection c, String accountId, String email, Collection<String> phones) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        if (email != null && !email.isBlank()) {
            rows.add(new String[]{"EMAIL", normalizeEmail(email)});
        }
        for (String p : phones) {
            String d = digits(p);
            if (!d.isEmpty()) {
                rows.add(new String[]{"PHONE", d});
            }
        }
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO contact_blacklist (account_id, kind, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String[] r : rows) {
                ps.setString(1, accountId);
                ps.setString(2, r[0]);
                ps.setString(3, r[1]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    static String normalizeEmail(String email) {
        return email.trim().toLowerCase(Locale.ROOT);
    }

    public static String digits(String phone) {
        return phone.replaceAll("[^0-9]", "");
    }
}
