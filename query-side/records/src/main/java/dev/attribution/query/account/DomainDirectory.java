package dev.attribution.query.account;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;

import javax.sql.DataSource;
import java.net.IDN;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** The account's tracked domains (table account_domains of V70): read by GET /domains, managed by the admin CLI. */
@Singleton
public class DomainDirectory {

    private static final Pattern HOST = Pattern.compile("(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]");

    private final DataSource dataSource;

    public DomainDirectory(DataSource dataSource) {
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    /** The canonical form of a domain (lower case, punycode, no trailing dot), or an exception naming the problem. */
    public static String normalize(String domain) {
        String d = domain == null ? "" : domain.trim().toLowerCase(Locale.ROOT);
        if (d.endsWith(".")) {
            d = d.substring(0, d.length() - 1);
        }
        try {
            d = IDN.toASCII(d);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid domain '" + domain + "'");
        }
        if (!HOST.matcher(d).matches()) {
            throw new IllegalArgumentException("invalid domain '" + domain + "'");
        }
        return d;
    }

    public List<String> list(String accountId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT domain FROM account_domains WHERE account_id = ? ORDER BY domain")) {
            ps.setString(1, accountId);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new IllegalStateException("domains: " + e.getMessage(), e);
        }
    }

    /** Adds a domain; false when the account already had it. */
    public boolean add(String accountId, String domain) {
        return update("INSERT INTO account_domains (account_id, domain) VALUES (?, ?) ON CONFLICT DO NOTHING", accountId, domain);
    }

    /** Removes a domain; false when the account did not have it. */
    public boolean remove(String accountId, String domain) {
        return update("DELETE FROM account_domains WHERE account_id = ? AND domain = ?", accountId, domain);
    }

    private boolean update(String sql, String accountId, String domain) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            c.setAutoCommit(true);
            ps.setString(1, accountId);
            ps.setString(2, domain);
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new IllegalStateException("domains: " + e.getMessage(), e);
        }
    }
}
