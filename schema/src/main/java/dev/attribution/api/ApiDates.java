package dev.attribution.api;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every date rule of spec 2.2 and 2.3, in one place.
 *
 * <p>Input forms: {@code yyyy-MM-dd}, {@code yyyy-MM-ddTHH:mm}, {@code yyyy-MM-ddTHH:mm:ss}, optionally with three
 * fractional digits, each optionally followed by {@code Z} or an offset with a colon ({@code +HH:mm}).
 * Writes read a missing offset as UTC; filters read it in the account's zone, a bare date being the first or
 * last second of that day depending on the bound.
 */
public final class ApiDates {

    public static final String INVALID_DATE_FORMAT = "Invalid date format.";

    /** Every accepted input form as one regular expression (published as the date parameters' pattern). */
    public static final String INPUT_PATTERN =
            "(\\d{4})-(\\d{2})-(\\d{2})(?:T(\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?)?(Z|[+-]\\d{2}:\\d{2})?";
    private static final Pattern FORM = Pattern.compile(INPUT_PATTERN);

    private static final DateTimeFormatter OUTPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssxxx", Locale.ROOT);
    private static final DateTimeFormatter UTC_OUTPUT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'", Locale.ROOT);
    private static final DateTimeFormatter LEGACY = DateTimeFormatter.ofPattern("EEE MMM dd HH:mm:ss zzz yyyy", Locale.US);
    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);

    private ApiDates() {
    }

    /** A date as written, before a zone is chosen for it. */
    public record Parsed(LocalDateTime local, ZoneOffset offset, boolean hasTime, boolean hasSeconds, boolean hasFraction) {

        /** Write semantics (2.2.3): no offset means UTC. */
        public Instant toWriteInstant() {
            return local.atOffset(offset == null ? ZoneOffset.UTC : offset).toInstant();
        }

        /**
         * Filter semantics (2.2.4), lower bound: no offset means the account zone, no time means the start of that
         * day. A wall-clock time skipped by a daylight-saving jump moves forward by the jump; a repeated one takes
         * its earlier instant, so the window is never narrowed.
         */
        public Instant toLowerBound(ZoneId accountZone) {
            if (offset != null) {
                return local.atOffset(offset).toInstant();
            }
            return hasTime ? ZonedDateTime.ofLocal(local, accountZone, null).withEarlierOffsetAtOverlap().toInstant()
                    : local.toLocalDate().atStartOfDay(accountZone).toInstant();
        }

        /**
         * Filter semantics (2.2.4), upper bound: a bare date reaches the end of its last second (23:59:59) in the
         * account zone; a repeated wall-clock time takes its later instant.
         */
        public Instant toUpperBound(ZoneId accountZone) {
            LocalDateTime end = hasTime ? local : local.toLocalDate().atTime(LocalTime.of(23, 59, 59, 999_999_999));
            return offset != null ? end.atOffset(offset).toInstant()
                    : ZonedDateTime.ofLocal(end, accountZone, null).withLaterOffsetAtOverlap().toInstant();
        }

        /** Custom-cost wall clock (2.2.8): the time as written, its offset discarded, not converted. */
        public LocalDateTime wallClock() {
            return local;
        }

        /** The calendar date as written (used by the future-month rule, which judges the month written). */
        public LocalDate writtenDate() {
            return local.toLocalDate();
        }
    }

    /** Parses any accepted form; {@code Invalid date format.} otherwise. */
    public static Parsed parse(String text) {
        if (text == null) {
            throw ApiException.badRequest(INVALID_DATE_FORMAT);
        }
        Matcher m = FORM.matcher(text.trim());
        if (!m.matches()) {
            throw ApiException.badRequest(INVALID_DATE_FORMAT);
        }
        try {
            LocalDate date = LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
            boolean hasTime = m.group(4) != null;
            boolean hasSeconds = m.group(6) != null;
            boolean hasFraction = m.group(7) != null;
            if (hasFraction && m.group(7).length() != 3) {
                throw ApiException.badRequest(INVALID_DATE_FORMAT);
            }
            LocalTime time = hasTime
                    ? LocalTime.of(Integer.parseInt(m.group(4)), Integer.parseInt(m.group(5)), hasSeconds ? Integer.parseInt(m.group(6)) : 0)
                    : LocalTime.MIDNIGHT;
            ZoneOffset offset = m.group(8) == null ? null : ZoneOffset.of(m.group(8));
            if (offset != null && !hasTime) {
                throw ApiException.badRequest(INVALID_DATE_FORMAT);
            }
            return new Parsed(date.atTime(time), offset, hasTime, hasSeconds, hasFraction);
        } catch (DateTimeException e) {
            throw ApiException.badRequest(INVALID_DATE_FORMAT);
        }
    }

    /** A write date (body or write query parameter): no offset = UTC, no time = 00:00:00 UTC. */
    public static Instant parseWrite(String text) {
        return parse(text).toWriteInstant();
    }

    /**
     * The strict form of {@code tagsDate} and {@code leadStage.date} (2.2.5): with an offset, seconds precision exactly.
     */
    public static Instant parseStrictWrite(String text) {
        Parsed p = parse(text);
        if (p.offset() != null && (!p.hasSeconds() || p.hasFraction())) {
            throw ApiException.badRequest(INVALID_DATE_FORMAT);
        }
        return p.toWriteInstant();
    }

    /** Spec 2.2.6: fractional seconds on an attribution report's {@code startDate}. */
    public static final String INVALID_START_DATE = "Invalid start date";
    /** Spec 2.2.6: fractional seconds on an attribution report's {@code endDate}. */
    public static final String INVALID_END_DATE = "Invalid end date";
    /** Spec 2.2.7: one attribution bound with an offset and the other without. */
    public static final String MIXED_OFFSETS = "There was a problem processing the date in the request.";
    /** Spec 7.2.4: an attribution bound later than now in the account zone. */
    public static final String ATTRIBUTION_FUTURE = "startDate or endDate cannot be in the future.";
    /** 7.2 rule 5 on the attribution reports (attribution, ad-account, roas, marginal-cac-curve): instants compared. */
    public static final String ATTRIBUTION_INVERTED = "startDate cannot be later than endDate";

    /** The {@code startDate}/{@code endDate} of an attribution report as instants (filter semantics). */
    public record Span(Instant start, Instant end) {
    }

    /**
     * The attribution reports' {@code startDate} and {@code endDate} (2.2.6, 2.2.7, 7.2.4): no fractional seconds,
     * both or neither with an offset, read in the account zone like any filter, and neither in the future there
     * (a bare date is in the future when it is after today in that zone).
     */
    public static Span attributionSpan(String startDate, String endDate, ZoneId zone, Clock clock) {
        Parsed start = parse(startDate);
        Parsed end = parse(endDate);
        if (start.hasFraction()) {
            throw ApiException.badRequest(INVALID_START_DATE);
        }
        if (end.hasFraction()) {
            throw ApiException.badRequest(INVALID_END_DATE);
        }
        if ((start.offset() == null) != (end.offset() == null)) {
            throw ApiException.badRequest(MIXED_OFFSETS);
        }
        Instant now = clock.instant();
        LocalDate today = LocalDate.ofInstant(now, zone);
        for (Parsed p : new Parsed[]{start, end}) {
            boolean future = p.hasTime() ? p.toLowerBound(zone).isAfter(now) : p.writtenDate().isAfter(today);
            if (future) {
                throw ApiException.badRequest(ATTRIBUTION_FUTURE);
            }
        }
        Span span = new Span(start.toLowerBound(zone), end.toUpperBound(zone));
        if (span.start().isAfter(span.end())) {
            throw ApiException.badRequest(ATTRIBUTION_INVERTED);
        }
        return span;
    }

    /** Custom-cost {@code startDate}/{@code endDate} (2.2.8): the wall clock as written, offset discarded. */
    public static LocalDateTime parseWallClock(String text) {
        return parse(text).wallClock();
    }

    /** The epoch-millisecond encoding of 2.3 ({@code Source.creationDate}, {@code creationDate} of ads). */
    public static Long epochMillis(Instant instant) {
        return instant == null ? null : instant.toEpochMilli();
    }

    /** ISO 8601 in the account's zone with its offset, e.g. {@code 2026-03-08T01:30:00-05:00}. */
    public static String format(Instant instant, ZoneId zone) {
        return instant == null ? null : OUTPUT.format(instant.atZone(zone));
    }

    /** UTC ISO 8601, e.g. {@code 2026-03-08T06:30:00Z} (request status, carts, webhooks). */
    public static String formatUtc(Instant instant) {
        return instant == null ? null : UTC_OUTPUT.format(instant.atZone(ZoneOffset.UTC));
    }

    /** The legacy encoding of 2.3, {@code EEE MMM dd HH:mm:ss zzz yyyy}, in the account's zone. */
    public static String formatLegacy(Instant instant, ZoneId zone) {
        return instant == null ? null : LEGACY.format(instant.atZone(zone));
    }

    /** A wall-clock local date-time without offset (custom costs, 2.2.8). */
    public static String formatLocal(LocalDateTime local) {
        return local == null ? null : LOCAL.format(local);
    }
}
