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

    /**
     * Up to {@code limit} counts in tag order after {@code afterName} (null for the first page); {@code name} exact
     * when set; {@code applied} bounds the date each lead received the tag (a tag with no lead in it is left out).
     */
    @Transactional(readOnly = true)
    public List<TagCount> counts(String accountId, String name, dev.attribution.api.DateRange applied, String afterName, int limit) {
        return jdbc.prepareStatement("""
                SELECT tag, count(*) FROM lead_tags WHERE account_id = ? AND (?::text IS NULL OR tag = ?)
                  AND (?::timestamptz IS NULL OR assigned_at >= ?) AND (?::timestamptz IS NULL OR assigned_at <= ?)
                  AND (?::text IS NULL OR tag > ?) GROUP BY tag ORDER BY tag LIMIT ?""", ps -> {
            java.sql.Timestamp from = applied.from().map(java.sql.Timestamp::from).orElse(null);
            java.sql.Timestamp to = applied.to().map(dev.attribution.query.support.SqlQuery::upperBound).orElse(null);
            ps.setString(1, accountId);
            ps.setString(2, name);
            ps.setString(3, name);
            ps.setTimestamp(4, from);
            ps.setTimestamp(5, from);
            ps.setTimestamp(6, to);
            ps.setTimestamp(7, to);
            ps.setString(8, afterName);
            ps.setString(9, afterName);
            ps.setInt(10, limit);
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
