package dev.attribution.query.support;

import dev.attribution.api.DateRange;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A SELECT built from optional filters with positional arguments, so readers state each filter once and never
 * concatenate values into SQL. Lists bind as {@code text[]}.
 */
public final class SqlQuery {

    /** Maps one row. */
    @FunctionalInterface
    public interface RowMapper<T> {
        T map(ResultSet rs) throws SQLException;
    }

    private final StringBuilder sql;
    private final List<Object> args = new ArrayList<>();

    public SqlQuery(String select, Object... args) {
        this.sql = new StringBuilder(select);
        this.args.addAll(List.of(args));
    }

    /** Appends {@code fragment} with its arguments. */
    public SqlQuery and(String fragment, Object... values) {
        sql.append(' ').append(fragment);
        args.addAll(List.of(values));
        return this;
    }

    /** Appends another query's text and arguments: a fragment shared by several parts of one statement. */
    public SqlQuery and(SqlQuery fragment) {
        sql.append(' ').append(fragment.sql);
        args.addAll(fragment.args);
        return this;
    }

    /** {@code AND column = ANY(?)} unless {@code values} is empty. */
    public SqlQuery anyOf(String column, List<String> values) {
        return values.isEmpty() ? this : and("AND " + column + " = ANY(?)", values);
    }

    /** {@code AND lower(column) = ANY(?)} with the values lower-cased (case-insensitive match), unless empty. */
    public SqlQuery anyOfLower(String column, List<String> values) {
        return values.isEmpty() ? this
                : and("AND lower(" + column + ") = ANY(?)", values.stream().map(v -> v.toLowerCase(Locale.ROOT)).toList());
    }

    /**
     * Rows of {@code alias} (with {@code account_id} and {@code lead_id}) whose lead's email starts with any of
     * {@code emailPrefixes}, case-insensitive; no condition when empty.
     */
    public SqlQuery leadEmailStartsWith(String alias, List<String> emailPrefixes) {
        return emailPrefixes.isEmpty() ? this
                : and("AND EXISTS (SELECT 1 FROM leads l WHERE l.account_id = " + alias + ".account_id AND l.id = "
                + alias + ".lead_id AND lower(l.email) LIKE ANY(?))", likePrefixes(emailPrefixes));
    }

    /** Bounds {@code column} by the range's present ends ({@link #upperBound} for the upper one). */
    public SqlQuery range(String column, DateRange range) {
        range.from().ifPresent(from -> and("AND " + column + " >= ?", Timestamp.from(from)));
        range.to().ifPresent(to -> and("AND " + column + " <= ?", upperBound(to)));
        return this;
    }

    /**
     * An inclusive upper bound as PostgreSQL compares it: floored to microseconds, its precision. A bare upper date is
     * 23:59:59.999999999 (spec 000 2.2 rule 4); bound as is, PostgreSQL rounds it to the next day's 00:00:00 and
     * {@code <=} takes the next midnight in. Every PostgreSQL {@code <=} bound of a filter goes through here.
     */
    public static Timestamp upperBound(Instant to) {
        return Timestamp.from(to.truncatedTo(java.time.temporal.ChronoUnit.MICROS));
    }

    /** Keyset continuation over {@code (timeColumn, idColumn)} ascending. */
    public SqlQuery after(String timeColumn, String idColumn, Keyset after) {
        return after == null ? this
                : and("AND (" + timeColumn + ", " + idColumn + ") > (?, ?)", Timestamp.from(after.time()), after.id());
    }

    public <T> List<T> list(Connection connection, RowMapper<T> mapper) {
        try (PreparedStatement ps = connection.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                Object a = args.get(i);
                if (a instanceof List<?> list) {
                    ps.setArray(i + 1, connection.createArrayOf("text", list.toArray()));
                } else {
                    ps.setObject(i + 1, a);
                }
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<T> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(mapper.map(rs));
                }
                return out;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        }
    }

    /**
     * Same as {@link #list}, with the statement planned once per connection and that plan kept: PostgreSQL's
     * {@code plan_cache_mode} is {@code force_generic_plan} for this statement only, inside the caller's transaction
     * (outside one it changes nothing). Only for a statement whose plan cannot depend on its arguments' values or on
     * statistics gathered while a table was small: a generic plan is made once and kept until the next ANALYZE, and one
     * made while {@code leads} was small looked an id up by scanning the account's whole email index (12,473 buffers
     * per call; docs/BENCHMARKS.md "The lead render's planning"). The sales' sources as of their dates were tried this
     * way and reverted: the plan kept from when {@code clicks} held 26 rows read a lead's clicks through the primary key,
     * 700 to 9,000 buffers per call as the table grew (docs/BENCHMARKS.md "Sources as of a date, planned once: tried
     * and reverted"). Without it PostgreSQL plans a statement afresh on every call for as long as its generic plan's
     * estimate looks worse than a custom plan's, which an array argument (100 rows in a generic plan, its real length
     * in a custom one) makes forever.
     */
    public <T> List<T> listPlannedOnce(Connection connection, RowMapper<T> mapper) {
        String before = planCacheMode(connection, "force_generic_plan");
        // restored after a success only: a failed statement aborts the transaction, which drops the setting with it
        List<T> rows = list(connection, mapper);
        planCacheMode(connection, before);
        return rows;
    }

    /** Sets {@code plan_cache_mode} until the end of the transaction; the value it had before. */
    private static String planCacheMode(Connection connection, String mode) {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT current_setting('plan_cache_mode'), set_config('plan_cache_mode', ?, true)")) {
            ps.setString(1, mode);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("query failed: " + e.getMessage(), e);
        }
    }

    /** {@code LIKE} patterns matching values that start with each prefix, lower-cased. */
    public static List<String> likePrefixes(List<String> prefixes) {
        return prefixes.stream().map(p -> p.toLowerCase(Locale.ROOT).replace("\\", "\\\\").replace("%", "\\%")
                .replace("_", "\\_") + "%").toList();
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        Timestamp t = rs.getTimestamp(column);
        return t == null ? null : t.toInstant();
    }
}
