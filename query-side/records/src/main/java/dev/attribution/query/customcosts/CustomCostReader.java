package dev.attribution.query.customcosts;

import dev.attribution.views.CustomCostView;

import dev.attribution.api.ApiDates;
import io.micronaut.data.jdbc.runtime.JdbcOperations;
import io.micronaut.transaction.annotation.Transactional;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** Reads custom costs (table custom_costs of V53) in the CustomCost shape. */
@Singleton
public class CustomCostReader {

    public record Cursor(Instant createdAt, String id) {
    }

    public record Page(List<CustomCostView> costs, Cursor next) {
    }

    private final JdbcOperations jdbc;

    public CustomCostReader(JdbcOperations jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Costs whose active range (start to end, open-ended without end) overlaps [{@code from}, {@code to}], compared
     * as wall-clock date-times.
     */
    @Transactional(readOnly = true)
    public Page page(String accountId, List<String> ids, Optional<LocalDateTime> from, Optional<LocalDateTime> to,
                     Cursor after, int pageSize) {
        StringBuilder sql = new StringBuilder("SELECT * FROM custom_costs WHERE account_id = ?");
        List<Object> args = new ArrayList<>(List.of(accountId));
        if (!ids.isEmpty()) {
            sql.append(" AND id = ANY(?)");
            args.add(ids);
        }
        to.ifPresent(t -> {
            sql.append(" AND start_date <= ?");
            args.add(t);
        });
        from.ifPresent(f -> {
            sql.append(" AND (end_date IS NULL OR end_date >= ?)");
            args.add(f);
        });
        if (after != null) {
            sql.append(" AND (created_at, id) > (?, ?)");
            args.add(Timestamp.from(after.createdAt()));
            args.add(after.id());
        }
        sql.append(" ORDER BY created_at, id LIMIT ?");
        args.add(pageSize + 1);
        Connection c = jdbc.getConnection();
        List<CustomCostView> out = new ArrayList<>();
        Cursor next = null;
        Instant lastCreated = null;
        try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
            bind(c, ps, args);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    if (out.size() == pageSize) {
                        CustomCostView last = out.get(out.size() - 1);
                        next = new Cursor(lastCreated, last.id());
                        break;
                    }
                    out.add(map(rs));
                    lastCreated = rs.getTimestamp("created_at").toInstant();
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("custom cost query failed: " + e.getMessage(), e);
        }
        return new Page(out, next);
    }

    /** One cost, on the caller's connection (write handlers render their result with it). */
    public Optional<CustomCostView> byId(Connection c, String accountId, String id) {
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM custom_costs WHERE account_id = ? AND id = ?")) {
            ps.setString(1, accountId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(map(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException("custom cost query failed: " + e.getMessage(), e);
        }
    }

    @Transactional(readOnly = true)
    public Optional<CustomCostView> byId(String accountId, String id) {
        return byId(jdbc.getConnection(), accountId, id);
    }

    private static CustomCostView map(ResultSet rs) throws SQLException {
        Timestamp end = rs.getTimestamp("end_date");
        return new CustomCostView(rs.getString("id"), rs.getString("name"), rs.getBigDecimal("cost"),
                rs.getString("frequency"), ApiDates.formatLocal(rs.getTimestamp("start_date").toLocalDateTime()),
                end == null ? null : ApiDates.formatLocal(end.toLocalDateTime()),
                Arrays.asList((String[]) rs.getArray("tags").getArray()));
    }

    private static void bind(Connection c, PreparedStatement ps, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            Object a = args.get(i);
            if (a instanceof List<?> list) {
                ps.setArray(i + 1, c.createArrayOf("text", list.toArray()));
            } else {
                ps.setObject(i + 1, a);
            }
        }
    }
}
