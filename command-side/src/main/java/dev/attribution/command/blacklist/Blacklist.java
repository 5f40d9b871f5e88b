package dev.attribution.command.blacklist;

import dev.attribution.api.ApiException;
import dev.attribution.api.DatabaseReads;
import dev.attribution.api.NotifiedCache;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The contact blacklist of erased leads (spec 3.1, 3.2, 7.2.8). Every write that carries an email or phone (leads,
 * orders, carts, calls, subscriptions, clicks) calls {@link #check} in its {@code *Writes} class before
 * {@code WriteRequestLog.accept}: a blacklisted contact is refused with 400 and no {@code request_id} is issued.
 * Emails compare case-insensitively, phones by their digits; only their hashes are stored ({@link #hash}).
 */
@Singleton
public class Blacklist {

    public static final String MESSAGE =
            "The event was discarded because an email or phone number it carries is blacklisted for this account.";

    /** An account's blacklist is held in memory up to this many entries; a longer one is queried per write. */
    static final int MAX_CACHED = 10_000;

    private final DataSource pool;
    private final NotifiedCache cache;

    public Blacklist(DataSource dataSource, NotifiedCache cache) {
        // the pool itself: reads are autocommitted SELECTs, without the round trips of transaction demarcation
        this.pool = DelegatingDataSource.unwrapDataSource(dataSource);
        this.cache = cache;
    }

    /**
     * 400 {@link #MESSAGE} when {@code email} (may be null) or one of {@code phones} is blacklisted. Called on every
     * write accepted: answered from the account's blacklist held in {@link NotifiedCache} (a node hears of every
     * change to {@code contact_blacklist} through its trigger, V35), or by one query when the account's blacklist is
     * longer than {@link #MAX_CACHED} (inside {@link DatabaseReads#without}, a read ends that attempt).
     */
    public void check(String accountId, String email, Collection<String> phones) {
        List<String> emails = email == null || email.isBlank() ? List.of() : List.of(hash(accountId, "EMAIL", normalizeEmail(email)));
        List<String> digits = phones == null ? List.of() : phones.stream().filter(Objects::nonNull)
                .map(Blacklist::digits).filter(d -> !d.isEmpty()).map(d -> hash(accountId, "PHONE", d)).toList();
        if (emails.isEmpty() && digits.isEmpty()) {
            return;
        }
        Optional<Set<String>> held = cache.get("blacklist|" + accountId, () -> load(accountId), v -> true);
        boolean listed = held.isPresent()
                ? emails.stream().anyMatch(e -> held.get().contains("EMAIL:" + e)) || digits.stream().anyMatch(d -> held.get().contains("PHONE:" + d))
                : query(accountId, emails, digits);
        if (listed) {
            throw ApiException.badRequest(MESSAGE);
        }
    }

    /** The account's whole blacklist as KIND:value, or empty when it is too long to hold. */
    private Optional<Set<String>> load(String accountId) {
        try (Connection c = autocommitted();
             PreparedStatement ps = c.prepareStatement("SELECT kind, value FROM contact_blacklist WHERE account_id = ? LIMIT ?")) {
            ps.setString(1, accountId);
            ps.setInt(2, MAX_CACHED + 1);
            Set<String> values = new HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    values.add(rs.getString(1) + ":" + rs.getString(2));
                }
            }
            return values.size() > MAX_CACHED ? Optional.empty() : Optional.of(Set.copyOf(values));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the contact blacklist", e);
        }
    }

    private boolean query(String accountId, List<String> emails, List<String> digits) {
        DatabaseReads.beforeRead();
        try (Connection c = autocommitted();
             PreparedStatement ps = c.prepareStatement("""
                     SELECT EXISTS (SELECT 1 FROM contact_blacklist WHERE account_id = ?
                       AND ((kind = 'EMAIL' AND value = ANY(?)) OR (kind = 'PHONE' AND value = ANY(?))))""")) {
            ps.setString(1, accountId);
            ps.setArray(2, c.createArrayOf("text", emails.toArray()));
            ps.setArray(3, c.createArrayOf("text", digits.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the contact blacklist", e);
        }
    }

    private Connection autocommitted() throws SQLException {
        Connection c = pool.getConnection();
        if (!c.getAutoCommit()) {
            c.setAutoCommit(true);
        }
        return c;
    }

    /** Convenience for writes carrying emails only. */
    public void checkEmail(String accountId, String email) {
        check(accountId, email, List.of());
    }

    /** Blacklists contacts on the caller's connection (the erasure of {@code DELETE /leads}). */
    public static void add(Connection c, String accountId, String email, Collection<String> phones) throws SQLException {
        List<String[]> rows = new ArrayList<>();
        if (email != null && !email.isBlank()) {
            rows.add(new String[]{"EMAIL", hash(accountId, "EMAIL", normalizeEmail(email))});
        }
        for (String p : phones) {
            String d = digits(p);
            if (!d.isEmpty()) {
                rows.add(new String[]{"PHONE", hash(accountId, "PHONE", d)});
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

    /**
     * What the blacklist stores of a contact: the hex SHA-256 of {@code account:KIND:value} (value normalised), never
     * the contact itself, so an erased lead's email and phones are nowhere in clear (docs/clickhouse-schema.md,
     * "Erasure"). Migration V98 turned the rows stored before into the same hashes.
     */
    static String hash(String accountId, String kind, String value) {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                    .digest((accountId + ':' + kind + ':' + value).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String normalizeEmail(String email) {
        return email.trim().toLowerCase(Locale.ROOT);
    }

    public static String digits(String phone) {
        return phone.replaceAll("[^0-9]", "");
    }
}
