package dev.attribution.api;

import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.Optional;

/**
 * A filter range of two optional bounds, checked by spec 7.2.3 and 7.2.5: a bound in a future calendar month (as
 * written) is refused naming the bound, and a lower bound later than the upper bound (compared as instants) is
 * refused with {@code <from> cannot be later than <to>}.
 */
public record DateRange(Optional<Instant> from, Optional<Instant> to) {

    public static final DateRange OPEN = new DateRange(Optional.empty(), Optional.empty());

    /** Reads the pair {@code fromName}/{@code toName}; {@code futureMonthRule} applies 7.2.3 to both. */
    public static DateRange read(QueryParams q, String fromName, String toName, ZoneId zone, boolean futureMonthRule) {
        return read(q, fromName, toName, zone, futureMonthRule, Clock.systemUTC());
    }

    /** {@link #read(QueryParams, String, String, ZoneId, boolean)} judged at {@code clock}'s now. */
    public static DateRange read(QueryParams q, String fromName, String toName, ZoneId zone, boolean futureMonthRule, Clock clock) {
        Optional<ApiDates.Parsed> from = q.string(fromName).map(ApiDates::parse);
        Optional<ApiDates.Parsed> to = q.string(toName).map(ApiDates::parse);
        if (futureMonthRule) {
            YearMonth current = YearMonth.from(clock.instant().atZone(zone));
            from.ifPresent(p -> futureMonth(fromName, p, current));
            to.ifPresent(p -> futureMonth(toName, p, current));
        }
        DateRange range = new DateRange(from.map(p -> p.toLowerBound(zone)), to.map(p -> p.toUpperBound(zone)));
        if (range.from.isPresent() && range.to.isPresent() && range.from.get().isAfter(range.to.get())) {
            throw ApiException.badRequest(fromName + " cannot be later than " + toName);
        }
        return range;
    }

    private static void futureMonth(String name, ApiDates.Parsed p, YearMonth current) {
        if (YearMonth.from(p.writtenDate()).isAfter(current)) {
            throw ApiException.badRequest("'" + name + "' cannot be in a future month: " + p.writtenDate());
        }
    }

    public boolean isOpen() {
        return from.isEmpty() && to.isEmpty();
    }
}
