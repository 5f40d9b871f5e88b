package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.ClickHouseSql;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;

/**
 * Literals and conditions of the report engine's ClickHouse SQL. ClickHouse 18.16 has no query parameters, so a
 * value reaches a statement as a literal: this class is the only place of the package that turns a value into one
 * (through {@link ClickHouseSql}, the escaping every module shares), so a table owner never concatenates a value.
 * Everything here runs on 18.16 and on current releases.
 */
public final class Sql {

    /** The latest DateTime the reports use as an open upper bound (2100-01-01, inside 18.16's DateTime range). */
    public static final Instant LATEST = Instant.parse("2100-01-01T00:00:00Z");

    private Sql() {
    }

    /** A quoted string literal. */
    public static String str(String value) {
        return ClickHouseSql.str(value);
    }

    /** {@code ('a', 'b')} for an IN list; callers make sure the collection is not empty. */
    public static String strList(Collection<String> values) {
        return ClickHouseSql.strList(values);
    }

    /** A DateTime literal in UTC, clamped at the epoch (DateTime starts there: an earlier bound matches no row anyway). */
    public static String dateTime(Instant instant) {
        return ClickHouseSql.dateTime(instant.isBefore(Instant.EPOCH) ? Instant.EPOCH : instant);
    }

    /** {@link #dateTime(Instant)} of epoch seconds. */
    public static String dateTime(long epochSecond) {
        return dateTime(Instant.ofEpochSecond(epochSecond));
    }

    /** A Date literal, clamped to 1970-01-01 for the same reason. */
    public static String date(LocalDate day) {
        LocalDate min = LocalDate.of(1970, 1, 1);
        return "toDate('" + (day.isBefore(min) ? min : day) + "')";
    }

    /** {@code column >= from AND column <= to}, DateTime bounds. */
    public static String between(String column, Instant from, Instant to) {
        return column + " >= " + dateTime(from) + " AND " + column + " <= " + dateTime(to);
    }

    /** {@code column >= from AND column <= to}, Date bounds. */
    public static String between(String column, LocalDate from, LocalDate to) {
        return column + " >= " + date(from) + " AND " + column + " <= " + date(to);
    }

    /** {@code column = 'value'}. */
    public static String eq(String column, String value) {
        return column + " = " + str(value);
    }

    /** {@code column IN ('a', 'b')}, or {@code 0} (false) for no value. */
    public static String in(String column, Collection<String> values) {
        return values.isEmpty() ? "0" : column + " IN " + strList(values);
    }
}
