package dev.attribution.command.products;

import dev.attribution.api.DatabaseReads;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.util.Optional;

/**
 * The accept-time lookup of {@code PUT /products/{id}}: the stored flags a known product is checked against before
 * its update is accepted (a product cannot be both a recurring sale and a call product).
 */
@Singleton
class ProductFlags {

    /** The two flags of a live product. */
    record Flags(boolean recurring, boolean callProduct) {
    }

    private final JdbcOperations jdbc;

    ProductFlags(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The flags of the live product {@code id}, or empty when the account has none with that id. */
    @Transactional(readOnly = true)
    public Optional<Flags> of(String accountId, String id) {
        DatabaseReads.beforeRead();
        return jdbc.prepareStatement(
                "SELECT recurring, call_product FROM products WHERE account_id = ? AND id = ? AND NOT deleted", ps -> {
                    ps.setString(1, accountId);
                    ps.setString(2, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next() ? Optional.of(new Flags(rs.getBoolean(1), rs.getBoolean(2))) : Optional.empty();
                    }
                });
    }
}
