package dev.attribution.command.requests;

import dev.attribution.api.ApiException;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Blacklisted emails and phones of an account (table {@code blacklisted_contacts}, V11). Every write that carries an
 * email or phone (create/update lead, order, cart, call, subscription, click) calls {@link #refuse} while validating,
 * before {@link WriteRequestLog#accept}: a blacklisted contact is refused with 400 and no {@code request_id}
 * (spec 7.2.8). Erasing a lead adds its contacts with {@link #add} inside the handler's transaction.
 */
@Singleton
public class Blacklist {

    public static final String DISCARDED =
            "The event was discarded because an email or phone number it carries is blacklisted for the account.";

    private final DataSource dataSource;

    public Blacklist(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** 400 {@link #DISCARDED} when any of {@code emails} or {@code phones} is blacklisted for the account. */
    public void refuse(String accountId, Collection<String> emails, Collection<String> phones) {
        List<String> e = emails.stream().map(Blacklist::normalizeEmail).toList();
        List<String> p = phones.stream().map(Blacklist::normalizePhone).filter(s -> !s.isEmpty()).toList();
        if (e.isEmpty() && p.isEmpty()) {
            return;
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("""
                     SELECT 1 FROM blacklisted_contacts WHERE account_id = ?
                       AND ((kind = 'EMAIL' AND value = ANY(?)) OR (kind = 'PHONE' AND value = ANY(?))) LIMIT 1""")) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", e.toArray()));
            ps.setArray(3, c.createArrayOf("text", p.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    throw ApiException.badRequest(DISCARDED);
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("cannot read the blacklist", ex);
        }
    }

    /** Blacklists contacts inside the caller's transaction (the erasure of a lead). */
    public void add(Connection connection, String accountId, Collection<String> emails, Collection<String> phones) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "INSERT INTO blacklisted_contacts (account_id, kind, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")) {
            for (String email : emails) {
                ps.setString(1, accountId);
                ps.setString(2, "EMAIL");
                ps.setString(3, normalizeEmail(email));
                ps.addBatch();
            }
            for (String phone : phones) {
                String normalized = normalizePhone(phone);
                if (!normalized.isEmpty()) {
                    ps.setString(1, accountId);
                    ps.setString(2, "PHONE");
                    ps.setString(3, normalized);
                    ps.addBatch();
                }
            }
            ps.executeBatch();
        }
    }

    static String normalizeEmail(String email) {
        return email.trim().toLowerCase(Locale.ROOT);
    }

    /** {@code +1 (555) 010-0000} → {@code +15550100000}. */
    static String normalizePhone(String phone) {
        String t = phone.trim();
        String digits = t.replaceAll("[^0-9]", "");
        return digits.isEmpty() ? "" : (t.startsWith("+") ? "+" : "") + digits;
    }
}
