package dev.attribution.cdc;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;

/** Shapes a PostgreSQL value (as Debezium emits it) for a ClickHouse column type in JSONEachRow. */
final class ColumnValues {

    private ColumnValues() {
    }

    static Object shape(Object value, String type) {
        boolean nullable = type.startsWith("Nullable(");
        String base = nullable ? type.substring(9, type.length() - 1) : type;
        if (value == null) {
            return nullable ? null : defaultFor(base);
        }
        if (base.startsWith("DateTime")) {
            return epochSeconds(value);
        }
        if (base.equals("Date")) {
            return value instanceof Number n ? LocalDate.ofEpochDay(n.longValue()).toString() : value.toString();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (base.startsWith("Decimal")) {
            // a JSON number: ClickHouse 18.16 refuses quoted decimals in JSONEachRow
            return new BigDecimal(value.toString());
        }
        if (base.startsWith("Array(") && value instanceof java.util.List<?> list) {
            return list;
        }
        return value;
    }

    private static Object defaultFor(String base) {
        if (base.startsWith("DateTime") || base.startsWith("Int") || base.startsWith("UInt") || base.startsWith("Float")) {
            return 0;
        }
        if (base.startsWith("Decimal")) {
            return 0;
        }
        if (base.equals("Date")) {
            return "1970-01-01";
        }
        if (base.startsWith("Array(")) {
            return java.util.List.of();
        }
        return "";
    }

    /** Debezium's ZonedTimestamp is an ISO string; MicroTimestamp and friends are numbers. */
    static long epochSeconds(Object value) {
        if (value instanceof String s) {
            return OffsetDateTime.parse(s).toInstant().getEpochSecond();
        }
        if (value instanceof Instant i) {
            return i.getEpochSecond();
        }
        if (value instanceof Number n) {
            return n.longValue() / 1_000_000L;
        }
        if (value instanceof BigDecimal d) {
            return d.longValue();
        }
        throw new IllegalArgumentException("not a timestamp: " + value);
    }
}
