package dev.attribution.query.stages;

import dev.attribution.api.DateRange;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.ResultSet;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * The account's lead stages with lead counts (spec 4.13 {@code /stages}). Without a stage date range a stage counts
 * the leads whose current stage it is; with one, every lead that entered it inside the range (a lead that moved
 * through several stages counts under each).
 */
@Singleton
public class StageReader {

    /** One stage: its id, name and how many leads it counts. */
    public record StageCount(String id, String name, long leadCount) {
    }

    private final JdbcOperations jdbc;

    public StageReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(readOnly = true)
    public List<StageCount> page(String accountId, String name, DateRange entered, String afterId, int limit) {
        boolean byHistory = !entered.isOpen();
        String count = byHistory
                ? """
                  (SELECT count(DISTINCT h.lead_id) FROM lead_stage_history h JOIN leads l ON l.account_id = h.account_id AND l.id = h.lead_id
                   WHERE h.account_id = s.account_id AND h.stage_id = s.id AND NOT l.erased
                     AND (?::timestamptz IS NULL OR h.entered_at >= ?) AND (?::timestamptz IS NULL OR h.entered_at <= ?))"""
                : """
                  (SELECT count(*) FROM leads l WHERE l.account_id = s.account_id AND NOT l.erased AND lower(l.stage_name) = lower(s.name))""";
        String sql = "SELECT s.id, s.name, " + count + " AS leads FROM lead_stages s WHERE s.account_id = ?"
                + " AND (?::text IS NULL OR lower(s.name) = lower(?)) AND (?::text IS NULL OR s.id > ?) ORDER BY s.id LIMIT ?";
        return jdbc.prepareStatement(sql, ps -> {
            int i = 1;
            if (byHistory) {
                Timestamp from = entered.from().map(Timestamp::from).orElse(null);
                Timestamp to = entered.to().map(dev.attribution.query.support.SqlQuery::upperBound).orElse(null);
                ps.setTimestamp(i++, from);
                ps.setTimestamp(i++, from);
                ps.setTimestamp(i++, to);
                ps.setTimestamp(i++, to);
            }
            ps.setString(i++, accountId);
            ps.setString(i++, name);
            ps.setString(i++, name);
            ps.setString(i++, afterId);
            ps.setString(i++, afterId);
            ps.setInt(i, limit);
            List<StageCount> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StageCount(rs.getString(1), rs.getString(2), rs.getLong(3)));
                }
            }
            return out;
        });
    }
}
