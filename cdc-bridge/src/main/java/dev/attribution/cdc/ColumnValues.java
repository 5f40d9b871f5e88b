package dev.attribution.cdc;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/** Shapes a PostgreSQL value (as Debezium emits it) for a ClickHouse column type in JSONEachRow. */
public final class ColumnValues {

    private ColumnValues() {
    }

    public static Object shape(Object value, String type) {
        return Type.of(type).shape(value);
    }

    /**
     * A ClickHouse column type read once (the sink shapes every value of every row by it): whether it is Nullable and
     * which kind of value it takes.
     */
    public record Type(boolean nullable, Kind kind) {

        enum Kind { DATE_TIME, DATE, DECIMAL, NUMBER, ARRAY, OTHER }

        public static Type of(String type) {
            boolean nullable = type.startsWith("Nullable(");
            String base = nullable ? type.substring(9, type.length() - 1) : type;
            Kind kind;
            if (base.startsWith("DateTime")) {
                kind = Kind.DATE_TIME;
            } else if (base.equals("Date")) {
                kind = Kind.DATE;
            } else if (base.startsWith("Decimal")) {
                kind = Kind.DECIMAL;
            } else if (base.startsWith("Int") || base.startsWith("UInt") || base.startsWith("Float")) {
                kind = Kind.NUMBER;
            } else if (base.startsWith("Array(")) {
                kind = Kind.ARRAY;
            } else {
                kind = Kind.OTHER;
            }
            return new Type(nullable, kind);
        }

        public Object shape(Object value) {
            if (value == null) {
                return nullable ? null : defaultValue();
            }
            switch (kind) {
                case DATE_TIME:
                    return epochSeconds(value);
                case DATE:
                    if (value instanceof Number n) {
                        return LocalDate.ofEpochDay(n.longValue()).toString();
                    }
                    String text = value.toString();
                    return text.length() > 10 && text.charAt(10) == 'T'
                            ? LocalDate.ofInstant(OffsetDateTime.parse(text).toInstant(), ZoneOffset.UTC).toString() : text;
                default:
                    break;
            }
            if (value instanceof Boolean b) {
                return b ? 1 : 0;
            }
            if (kind == Kind.DECIMAL) {
                // a JSON number: 18.16 refuses quoted decimals in JSONEachRow
                return value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
            }
            return value;
        }

        /** Writes the shaped value: the usual types directly, anything else through the generator's codec. */
        public void write(JsonGenerator json, Object value) throws IOException {
            Object shaped = shape(value);
            if (shaped == null) {
                json.writeNull();
            } else if (shaped instanceof String s) {
                json.writeString(s);
            } else if (shaped instanceof Long l) {
                json.writeNumber(l);
            } else if (shaped instanceof Integer i) {
                json.writeNumber(i);
            } else if (shaped instanceof BigDecimal d) {
                json.writeNumber(d);
            } else if (shaped instanceof Double d) {
                json.writeNumber(d);
            } else {
                json.writeObject(shaped);
            }
        }

        private Object defaultValue() {
            return switch (kind) {
                case DATE_TIME, NUMBER -> 0;
                case DECIMAL -> BigDecimal.ZERO;
                case DATE -> "1970-01-01";
                case ARRAY -> List.of();
                case OTHER -> "";
            };
        }
    }

    /** Debezium's ZonedTimestamp is an ISO string; MicroTimestamp and friends are numbers. */
    static long epochSeconds(Object value) {
        if (value instanceof String s) {
            long fast = isoEpochSeconds(s);
            return fast != Long.MIN_VALUE ? fast : OffsetDateTime.parse(s).toInstant().getEpochSecond();
        }
        if (value instanceof Instant i) {
            return i.getEpochSecond();
        }
        if (value instanceof BigDecimal d) {
            return d.longValue();
        }
        if (value instanceof Number n) {
            // MicroTimestamp: microseconds since the epoch; floor, as DateTime truncates (also before 1970)
            return Math.floorDiv(n.longValue(), 1_000_000L);
        }
        throw new IllegalArgumentException("not a timestamp: " + value);
    }

    /**
     * Epoch seconds of {@code yyyy-MM-ddTHH:mm:ss[.fraction](Z|±HH:MM[:SS])} (what ZonedTimestamp emits: ISO offset
     * date-time, 4-digit year), without a formatter: {@code OffsetDateTime.parse} was most of the sink's CPU time.
     * The fraction is dropped (a positive part of a second: the seconds floor). {@link Long#MIN_VALUE} for any other
     * text, which the caller then parses the slow way.
     */
    static long isoEpochSeconds(String s) {
        int n = s.length();
        if (n < 20 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' || s.charAt(13) != ':' || s.charAt(16) != ':') {
            return Long.MIN_VALUE;
        }
        int year = digits(s, 0, 4);
        int month = digits(s, 5, 2);
        int day = digits(s, 8, 2);
        int hour = digits(s, 11, 2);
        int minute = digits(s, 14, 2);
        int second = digits(s, 17, 2);
        if ((year | month | day | hour | minute | second) < 0 || hour > 23 || minute > 59 || second > 59) {
            return Long.MIN_VALUE;
        }
        int i = 19;
        if (s.charAt(i) == '.') {
            i++;
            int start = i;
            while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                i++;
            }
            if (i == start || i - start > 9) {
                return Long.MIN_VALUE;
            }
        }
        int offset;
        if (i == n - 1 && s.charAt(i) == 'Z') {
            offset = 0;
        } else if ((n - i == 6 || n - i == 9) && (s.charAt(i) == '+' || s.charAt(i) == '-') && s.charAt(i + 3) == ':') {
            int oh = digits(s, i + 1, 2);
            int om = digits(s, i + 4, 2);
            int os = 0;
            if (n - i == 9) {
                if (s.charAt(i + 6) != ':') {
                    return Long.MIN_VALUE;
                }
                os = digits(s, i + 7, 2);
            }
            if ((oh | om | os) < 0 || oh > 18 || om > 59 || os > 59) {
                return Long.MIN_VALUE;
            }
            offset = (s.charAt(i) == '-' ? -1 : 1) * (oh * 3600 + om * 60 + os);
        } else {
            return Long.MIN_VALUE;
        }
        long epochDay;
        try {
            epochDay = LocalDate.of(year, month, day).toEpochDay();
        } catch (DateTimeException e) {
            return Long.MIN_VALUE;
        }
        return epochDay * 86_400L + hour * 3600L + minute * 60L + second - offset;
    }

    /** The decimal number in {@code s[from, from + count)}, -1 unless all are ASCII digits. */
    private static int digits(String s, int from, int count) {
        int v = 0;
        for (int i = from; i < from + count; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
