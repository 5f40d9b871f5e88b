package dev.attribution.query.attribution.metrics;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Date buckets of the attribution reports ({@code timeGroupingOption}, {@code adLevelDateGroupingOption}): days,
 * ISO weeks (Monday to Sunday), calendar months or years in the account time zone. The first and last buckets are
 * cut by the requested range, so additive metrics of the buckets sum to the whole-range row.
 */
public final class TimeBuckets {

    /** A bucket unit. */
    public enum Unit { day, week, month, year }

    /** One bucket: {@code id} = its (cut) start date, {@code start}..{@code end} inclusive, a label. */
    public record Bucket(String id, LocalDate start, LocalDate end, String name) {
    }

    private TimeBuckets() {
    }

    /** The uncut start of the bucket holding {@code day}. */
    public static LocalDate startOf(Unit unit, LocalDate day) {
        return switch (unit) {
            case day -> day;
            case week -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case month -> day.withDayOfMonth(1);
            case year -> day.withDayOfYear(1);
        };
    }

    private static LocalDate endOf(Unit unit, LocalDate start) {
        return switch (unit) {
            case day -> start;
            case week -> start.plusDays(6);
            case month -> start.plusMonths(1).minusDays(1);
            case year -> start.plusYears(1).minusDays(1);
        };
    }

    /** The buckets covering {@code from..to}, keyed by their uncut start date (what the SQL groups by). */
    public static Map<LocalDate, Bucket> covering(Unit unit, LocalDate from, LocalDate to) {
        Map<LocalDate, Bucket> out = new LinkedHashMap<>();
        for (LocalDate s = startOf(unit, from); !s.isAfter(to); s = endOf(unit, s).plusDays(1)) {
            LocalDate start = s.isBefore(from) ? from : s;
            LocalDate end = endOf(unit, s).isAfter(to) ? to : endOf(unit, s);
            out.put(s, new Bucket(start.toString(), start, end, label(start, end)));
        }
        return out;
    }

    /** The buckets as a list, oldest first. */
    public static List<Bucket> list(Unit unit, LocalDate from, LocalDate to) {
        return new ArrayList<>(covering(unit, from, to).values());
    }

    private static String label(LocalDate start, LocalDate end) {
        return start.equals(end) ? start.toString() : start + " - " + end;
    }

    /**
     * The ClickHouse expression of the uncut bucket start (a Date) of {@code dateTimeColumn} (DateTime('UTC')) in
     * {@code zone}; runs on 18.16 (no toStartOfInterval) and current releases.
     */
    public static String sqlOfDateTime(Unit unit, String dateTimeColumn, ZoneId zone) {
        return sqlOfDate(unit, "toDate(" + dateTimeColumn + ", '" + clickHouseZone(zone) + "')");
    }

    /** The ClickHouse expression of the uncut bucket start of a Date expression. */
    public static String sqlOfDate(Unit unit, String dateExpression) {
        return switch (unit) {
            case day -> dateExpression;
            case week -> "toMonday(" + dateExpression + ")";
            case month -> "toStartOfMonth(" + dateExpression + ")";
            case year -> "toStartOfYear(" + dateExpression + ")";
        };
    }

    /** A zone name ClickHouse knows: region ids as they are, whole-hour offsets as Etc/GMT∓h, UTC for Z. */
    static String clickHouseZone(ZoneId zone) {
        ZoneId z = zone.normalized();
        if (z instanceof ZoneOffset offset) {
            int seconds = offset.getTotalSeconds();
            if (seconds == 0) {
                return "UTC";
            }
            if (seconds % 3600 == 0) {
                int h = seconds / 3600;
                // POSIX sign convention: Etc/GMT-3 is UTC+3
                return "Etc/GMT" + (h > 0 ? "-" : "+") + Math.abs(h);
            }
            throw new IllegalArgumentException("time zone offset not supported by the report: " + offset);
        }
        return z.getId();
    }

    public static Unit unit(String value) {
        return Unit.valueOf(value.toLowerCase(Locale.ROOT));
    }
}
