package dev.attribution.server.mcp;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;

/** Spec 5.6: {@code accessible_account_id} is advertised to agency accounts, those with an approved client link. */
@Singleton
class AgencyAccounts {

    private final JdbcOperations jdbc;

    AgencyAccounts(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    boolean isAgency(String accountId) {
        return jdbc.prepareStatement("SELECT 1 FROM agency_links WHERE agency_id = ? AND state = 'APPROVED' LIMIT 1", ps -> {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        });
    }
}
