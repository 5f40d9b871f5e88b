package dev.attribution.api.auth;

import dev.attribution.api.NotifiedCache;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;

import javax.sql.DataSource;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Accounts, keys and agency links in PostgreSQL (tables of V1). */
@Singleton
public class AccountDirectory {

    /** A key's grant as stored: the account it belongs to and the roles it carries. */
    public record KeyGrant(Account account, Set<String> keyRoles, Set<String> permittedRoles, boolean readOnly) {

        /** Roles in force now: what the key carries and the account still permits (spec 5.3, 5.4). */
        public Set<String> effectiveRoles() {
            Set<String> out = new LinkedHashSet<>(keyRoles);
            if (permittedRoles != null) {
                out.retainAll(permittedRoles);
            }
            if (readOnly) {
                out.removeIf(r -> !Roles.isReadRole(r));
            }
            return out;
        }
    }

    /** Per-account rate limit overrides; null fields mean the defaults. */
    public record RateOverride(Integer perSecond, Integer perMinute) {
    }

    private final JdbcOperations jdbc;
    private final DataSource pool;

    public AccountDirectory(JdbcOperations jdbc, DataSource dataSource) {
        this.jdbc = jdbc;
        this.pool = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** A live key's grant together with its account's rate-limit overrides: what every request needs, in one query. */
    public record Credentials(KeyGrant grant, RateOverride rateOverride) {
    }

    /**
     * {@link #findActiveKey} and {@link #rateOverride} in one round trip: the per-request path of ApiKeyFilter, so
     * one autocommitted SELECT on a pooled connection, without transaction demarcation (which costs round trips).
     */
    public Optional<Credentials> findCredentials(String keyHash) {
        try (Connection c = pool.getConnection();
             PreparedStatement ps = c.prepareStatement("""
                     SELECT a.*, k.roles AS key_roles, k.read_only
                     FROM api_keys k JOIN accounts a ON a.id = k.account_id
                     WHERE k.key_hash = ? AND k.revoked_at IS NULL""")) {
            if (!c.getAutoCommit()) {
                c.setAutoCommit(true);
            }
            ps.setString(1, keyHash);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                KeyGrant grant = new KeyGrant(account(rs), strings(rs.getArray("key_roles")),
                        rs.getArray("permitted_roles") == null ? null : strings(rs.getArray("permitted_roles")),
                        rs.getBoolean("read_only"));
                return Optional.of(new Credentials(grant,
                        new RateOverride((Integer) rs.getObject("rate_per_second"), (Integer) rs.getObject("rate_per_minute"))));
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read API keys", e);
        }
    }

    @Transactional(readOnly = true)
    public Optional<KeyGrant> findActiveKey(String keyHash) {
        return jdbc.prepareStatement("""
                SELECT a.*, k.roles AS key_roles, k.read_only
                FROM api_keys k JOIN accounts a ON a.id = k.account_id
                WHERE k.key_hash = ? AND k.revoked_at IS NULL""", ps -> {
            ps.setString(1, keyHash);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new KeyGrant(account(rs), strings(rs.getArray("key_roles")),
                        rs.getArray("permitted_roles") == null ? null : strings(rs.getArray("permitted_roles")),
                        rs.getBoolean("read_only")));
            }
        });
    }

    @Transactional(readOnly = true)
    public Optional<Account> find(String accountId) {
        return jdbc.prepareStatement("SELECT * FROM accounts WHERE id = ?", ps -> {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(account(rs)) : Optional.empty();
            }
        });
    }

    /**
     * The accounts of {@code ids} that exist, read on {@code c} in its transaction (one round trip, no transaction of
     * its own): the write worker reads its batch's accounts this way.
     */
    public static Map<String, Account> findAll(Connection c, Collection<String> ids) throws SQLException {
        Map<String, Account> found = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM accounts WHERE id = ANY(?)")) {
            ps.setArray(1, c.createArrayOf("text", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Account a = account(rs);
                    found.put(a.id(), a);
                }
            }
        }
        return found;
    }

    @Transactional(readOnly = true)
    public Optional<RateOverride> rateOverride(String accountId) {
        return jdbc.prepareStatement("SELECT rate_per_second, rate_per_minute FROM accounts WHERE id = ?", ps -> {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new RateOverride((Integer) rs.getObject(1), (Integer) rs.getObject(2)));
            }
        });
    }

    /** State of the agency → client relation, if any (APPROVED, PENDING, REVOKED). */
    @Transactional(readOnly = true)
    public Optional<String> agencyLinkState(String agencyId, String clientId) {
        return jdbc.prepareStatement("SELECT state FROM agency_links WHERE agency_id = ? AND client_id = ?", ps -> {
            ps.setString(1, agencyId);
            ps.setString(2, clientId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        });
    }

    @Transactional
    public void createAccount(String id, String name, String email, ZoneId zone, String currency) {
        NotifiedCache.invalidateAll();
        jdbc.prepareStatement("INSERT INTO accounts (id, name, email, time_zone, currency) VALUES (?, ?, ?, ?, ?)", ps -> {
            ps.setString(1, id);
            ps.setString(2, name);
            ps.setString(3, email);
            ps.setString(4, zone.getId());
            ps.setString(5, currency);
            return ps.executeUpdate();
        });
    }

    @Transactional
    public void createKey(String accountId, String keyHash, List<String> roles, boolean readOnly) {
        NotifiedCache.invalidateAll();
        jdbc.prepareStatement("INSERT INTO api_keys (account_id, key_hash, roles, read_only) VALUES (?, ?, ?, ?)", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, keyHash);
            ps.setArray(3, ps.getConnection().createArrayOf("text", roles.toArray()));
            ps.setBoolean(4, readOnly);
            return ps.executeUpdate();
        });
    }

    /** Revokes a key given the key itself; true when a live key was revoked. */
    @Transactional
    public boolean revokeKey(String keyHash) {
        NotifiedCache.invalidateAll();
        return jdbc.prepareStatement("UPDATE api_keys SET revoked_at = now() WHERE key_hash = ? AND revoked_at IS NULL", ps -> {
            ps.setString(1, keyHash);
            return ps.executeUpdate() > 0;
        });
    }

    @Transactional
    public boolean setState(String accountId, String state) {
        NotifiedCache.invalidateAll();
        return update("UPDATE accounts SET state = ? WHERE id = ?", state, accountId);
    }

    /** Replaces the roles the account's plan permits; null = every role. */
    @Transactional
    public boolean setPermittedRoles(String accountId, List<String> roles) {
        NotifiedCache.invalidateAll();
        return jdbc.prepareStatement("UPDATE accounts SET permitted_roles = ? WHERE id = ?", ps -> {
            ps.setArray(1, roles == null ? null : ps.getConnection().createArrayOf("text", roles.toArray()));
            ps.setString(2, accountId);
            return ps.executeUpdate() > 0;
        });
    }

    @Transactional
    public boolean setRateOverride(String accountId, Integer perSecond, Integer perMinute) {
        NotifiedCache.invalidateAll();
        return jdbc.prepareStatement("UPDATE accounts SET rate_per_second = ?, rate_per_minute = ? WHERE id = ?", ps -> {
            ps.setObject(1, perSecond);
            ps.setObject(2, perMinute);
            ps.setString(3, accountId);
            return ps.executeUpdate() > 0;
        });
    }

    @Transactional
    public void link(String agencyId, String clientId, String state) {
        NotifiedCache.invalidateAll();
        jdbc.prepareStatement("""
                INSERT INTO agency_links (agency_id, client_id, state) VALUES (?, ?, ?)
                ON CONFLICT (agency_id, client_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()""", ps -> {
            ps.setString(1, agencyId);
            ps.setString(2, clientId);
            ps.setString(3, state);
            return ps.executeUpdate();
        });
    }

    private boolean update(String sql, String a, String b) {
        return jdbc.prepareStatement(sql, ps -> {
            ps.setString(1, a);
            ps.setString(2, b);
            return ps.executeUpdate() > 0;
        });
    }

    private static Account account(ResultSet rs) throws SQLException {
        return new Account(rs.getString("id"), rs.getString("name"), rs.getString("email"),
                ZoneId.of(rs.getString("time_zone")), rs.getString("currency").trim(), rs.getString("state"));
    }

    private static Set<String> strings(Array array) throws SQLException {
        return array == null ? Set.of() : new LinkedHashSet<>(Arrays.asList((String[]) array.getArray()));
    }

}
