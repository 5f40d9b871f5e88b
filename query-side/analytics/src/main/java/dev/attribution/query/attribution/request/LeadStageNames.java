package dev.attribution.query.attribution.request;

import dev.attribution.api.ApiException;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The {@code lead_stage} option: stage names are matched case-insensitively against the account's stages. */
@Singleton
public class LeadStageNames {

    private final JdbcOperations jdbc;

    public LeadStageNames(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The requested names lower-cased, or 400 {@code Invalid lead_stage: <name>. Accepted values: <the account's
     * stage names>} for the first name the account does not know.
     */
    @Transactional(readOnly = true)
    public List<String> resolve(String accountId, List<String> requested) {
        if (requested.isEmpty()) {
            return List.of();
        }
        List<String> known = jdbc.prepareStatement("SELECT name FROM lead_stages WHERE account_id = ? ORDER BY lower(name)", ps -> {
            ps.setString(1, accountId);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
        List<String> lower = new ArrayList<>();
        for (String name : requested) {
            if (known.stream().noneMatch(k -> k.equalsIgnoreCase(name))) {
                throw ApiException.badRequest(known.isEmpty()
                        ? "Invalid lead_stage: " + name + ". The account has no lead stages"
                        : "Invalid lead_stage: " + name + ". Accepted values: " + String.join(", ", known));
            }
            lower.add(name.toLowerCase(Locale.ROOT));
        }
        return lower;
    }
}
