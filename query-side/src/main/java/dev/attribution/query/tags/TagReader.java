package dev.attribution.query.tags;

import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;

/** Tag names and lead counts per tag, from PostgreSQL (spec 4.7). Erased leads hold no tags. */
@Singleton
public class TagReader {

    /** {@code {name, amount}}: a lead with several tags counts once per tag. */
    public record TagCount(String name, long amount) {
    }

    private final JdbcOperations jdbc;

    public TagReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public List<String> names(String accountId) {
        return jdbc.prepareStatement("SELECT DISTINCT tag FROM lead_tags WHERE account_id = ? ORDER BY tag", ps -> {
            ps.setString(1, accountId);
            List<String> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        });
    }

    /** Up to {@code limit} counts in tag order after {@code afterName} (null for the first page); {@code name} exact when set. */
    @Transactional(readOnly = true)
    public List<TagCount> counts(String accountId, String name, String afterName, int limit) {
        return jdbc.prepareStatement("""
                SELECT tag, count(*) FROM lead_tags WHERE account_id = ? AND (?::text IS NULL OR tag = ?)
                  AND (?::text IS NULL OR tag > ?) GROUP BY tag ORDER BY tag LIMIT ?""", ps -> {
            ps.setString(1, accountId);
            ps.setString(2, name);
            ps.setString(3, name);
            ps.setString(4, afterName);
            ps.setString(5, afterName);
            ps.setInt(6, limit);
            List<TagCount> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TagCount(rs.getString(1), rs.getLong(2)));
                }
            }
            return out;
        });
    }
}
