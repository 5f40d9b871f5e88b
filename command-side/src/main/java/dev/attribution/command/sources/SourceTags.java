package dev.attribution.command.sources;

import dev.attribution.api.DatabaseReads;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.util.Optional;

/**
 * The accept-time lookup of {@code PUT} and {@code DELETE /sources/{tag}}: which live source link carries a tag, so
 * an unknown tag and a tag taken by another source are refused before the write is accepted.
 */
@Singleton
class SourceTags {

    private final JdbcOperations jdbc;

    SourceTags(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /** The id of the live source carrying {@code tag} (case-insensitive), if any. */
    @Transactional(readOnly = true)
    public Optional<String> idByTag(String accountId, String tag) {
        DatabaseReads.beforeRead();
        return jdbc.prepareStatement("""
                SELECT id FROM source_links WHERE account_id = ? AND deleted_at IS NULL AND lower(tag) = lower(?)
                LIMIT 1""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, tag);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.<String>empty();
            }
        });
    }
}
