package dev.attribution.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Table-driven tests of every numbered rule of spec 2.2 and 2.3 (and the date rules of 7.2). */
class ApiDatesTest {

    static final ZoneId NY = ZoneId.of("America/New_York");

    static void assertRefused(String message, org.junit.jupiter.api.function.Executable call) {
        ApiException e = assertThrows(ApiException.class, call);
        assertEquals(400, e.status().getCode());
        assertEquals(java.util.List.of(message), e.messages());
    }

    // 2.2.2 accepted forms, 2.2.3 write semantics (no offset = UTC, no time = 00:00:00 UTC), 2.2.6 fractions dropped
    @ParameterizedTest
    @CsvSource({
            "2025-03-01,                     2025-03-01T00:00:00Z",
            "2025-03-01T10:15,               2025-03-01T10:15:00Z",
            "2025-03-01T10:15:30,            2025-03-01T10:15:30Z",
            "2025-03-01T10:15:30Z,           2025-03-01T10:15:30Z",
            "2025-03-01T10:15:30+02:00,      2025-03-01T08:15:30Z",
            "2025-03-01T10:15:30-05:00,      2025-03-01T15:15:30Z",
            "2025-03-01T10:15+01:00,         2025-03-01T09:15:00Z",
            "2025-03-01T10:15:30.123,        2025-03-01T10:15:30Z",
            "2025-03-01T10:15:30.999-05:00,  2025-03-01T15:15:30Z",
            "2024-02-29T23:59:59+14:00,      2024-02-29T09:59:59Z",
            "2025-03-08T02:30:00,            2025-03-08T02:30:00Z",
    })
    void acceptedFormsWithWriteSemantics(String text, String expected) {
        assertEquals(Instant.parse(expected), ApiDates.parseWrite(text));
    }

    // 2.2.2: offsets need a colon; anything else is "Invalid date format."
    @ParameterizedTest
    @ValueSource(strings = {"2025-03-01T10:15:30-0500", "2025-03-01T10:15:30+0200", "2025-03-01T10:15:30+02",
            "20250301", "2025/03/01", "2025-3-1", "2025-03-01 10:15:30", "2025-03-01T10", "2025-03-01T10:15:30.12",
            "2025-03-01T10:15:30.1234", "2025-02-29", "2025-13-01", "2025-00-10", "2025-03-32", "2025-03-01T24:00:00",
            "2025-03-01T10:60", "2025-03-01Z", "2025-03-01+01:00", "garbage", "2025-03-01T10:15:30+25:00",
            "1741000000000", "Sat Mar 01 10:15:30 EST 2025", "２０２５-03-01", "2025-03-01T10:15:30z"})
    void refusedForms(String text) {
        assertRefused(ApiDates.INVALID_DATE_FORMAT, () -> ApiDates.parse(text));
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {" "})
    void missingIsRefused(String text) {
        assertRefused(ApiDates.INVALID_DATE_FORMAT, () -> ApiDates.parse(text));
    }

    // 2.2.4 filter semantics: no offset = account zone; bare date is 00:00:00 (lower) or 23:59:59 (upper)
    @ParameterizedTest
    @CsvSource({
            // text,                       zone,             lower,                            upper
            "2025-01-15,                   America/New_York, 2025-01-15T05:00:00Z,             2025-01-16T04:59:59.999999999Z",
            "2025-07-15,                   America/New_York, 2025-07-15T04:00:00Z,             2025-07-16T03:59:59.999999999Z",
            "2025-07-15,                   UTC,              2025-07-15T00:00:00Z,             2025-07-15T23:59:59.999999999Z",
            "2025-07-15,                   Asia/Kolkata,     2025-07-14T18:30:00Z,             2025-07-15T18:29:59.999999999Z",
            "2025-07-15T10:00,             America/New_York, 2025-07-15T14:00:00Z,             2025-07-15T14:00:00Z",
            "2025-07-15T10:00:00Z,         America/New_York, 2025-07-15T10:00:00Z,             2025-07-15T10:00:00Z",
            "2025-07-15T10:00:00+02:00,    America/New_York, 2025-07-15T08:00:00Z,             2025-07-15T08:00:00Z",
            // daylight saving starts in New York on 2026-03-08 at 02:00 (EST -05:00 -> EDT -04:00): a 23-hour day
            "2026-03-08,                   America/New_York, 2026-03-08T05:00:00Z,             2026-03-09T03:59:59.999999999Z",
            "2026-03-08T01:59:59,          America/New_York, 2026-03-08T06:59:59Z,             2026-03-08T06:59:59Z",
            "2026-03-08T02:30,             America/New_York, 2026-03-08T07:30:00Z,             2026-03-08T07:30:00Z",
            "2026-03-08T03:00,             America/New_York, 2026-03-08T07:00:00Z,             2026-03-08T07:00:00Z",
            // daylight saving ends on 2026-11-01 at 02:00 (EDT -> EST): a 25-hour day, 01:00-01:59 happens twice
            "2026-11-01,                   America/New_York, 2026-11-01T04:00:00Z,             2026-11-02T04:59:59.999999999Z",
            "2026-11-01T01:30,             America/New_York, 2026-11-01T05:30:00Z,             2026-11-01T06:30:00Z",
            "2026-11-01T01:30:00-05:00,    America/New_York, 2026-11-01T06:30:00Z,             2026-11-01T06:30:00Z",
            // southern hemisphere: Sydney leaves daylight saving on 2026-04-05 (03:00 AEDT -> 02:00 AEST)
            "2026-04-05,                   Australia/Sydney, 2026-04-04T13:00:00Z,             2026-04-05T13:59:59.999999999Z",
    })
    void filterBoundsInTheAccountZone(String text, String zone, String lower, String upper) {
        ApiDates.Parsed p = ApiDates.parse(text);
        assertEquals(Instant.parse(lower), p.toLowerBound(ZoneId.of(zone)), "lower");
        assertEquals(Instant.parse(upper), p.toUpperBound(ZoneId.of(zone)), "upper");
    }

    // 2.2.4: where midnight itself is skipped by a daylight-saving jump, a day starts at its first existing instant
    @Test
    void dayStartsAtItsFirstInstantWhenMidnightIsSkipped() {
        ZoneId zone = ZoneId.of("America/Santiago");
        LocalDate day = LocalDate.of(2026, 1, 1);
        while (day.getYear() == 2026 && day.atStartOfDay(zone).toLocalTime().equals(java.time.LocalTime.MIDNIGHT)) {
            day = day.plusDays(1);
        }
        if (day.getYear() != 2026) {
            return; // this tz database has no midnight jump for Santiago in 2026
        }
        Instant lower = ApiDates.parse(day.toString()).toLowerBound(zone);
        assertEquals(day.atStartOfDay(zone).toInstant(), lower);
        assertEquals(day, LocalDate.ofInstant(lower, zone), "still the same calendar day");
        assertEquals(day.minusDays(1), LocalDate.ofInstant(lower.minusSeconds(1), zone), "nothing of the day is lost");
    }

    // 2.2.4 "a record written without an offset can fall outside the filter for its own calendar day"
    @Test
    void writtenWithoutOffsetCanFallOutsideItsOwnDayFilter() {
        Instant written = ApiDates.parseWrite("2025-07-15T23:00:00");
        ApiDates.Parsed day = ApiDates.parse("2025-07-15");
        assertTrue(written.isAfter(day.toLowerBound(ZoneId.of("Asia/Tokyo"))));
        assertTrue(written.isAfter(day.toUpperBound(ZoneId.of("Asia/Tokyo"))), "15 Jul 23:00 UTC is 16 Jul in Tokyo");
    }

    // 2.2.5: tagsDate / leadStage.date with an offset need seconds exactly
    @ParameterizedTest
    @CsvSource({
            "2025-03-01T10:15:30-05:00, 2025-03-01T15:15:30Z",
            "2025-03-01T10:15:30Z,      2025-03-01T10:15:30Z",
            "2025-03-01T10:15:30,       2025-03-01T10:15:30Z",
            "2025-03-01T10:15,          2025-03-01T10:15:00Z",
            "2025-03-01T10:15:30.123,   2025-03-01T10:15:30Z",
            "2025-03-01,                2025-03-01T00:00:00Z",
    })
    void strictFormAccepted(String text, String expected) {
        assertEquals(Instant.parse(expected), ApiDates.parseStrictWrite(text));
    }

    @ParameterizedTest
    @ValueSource(strings = {"2025-03-01T10:15-05:00", "2025-03-01T10:15Z", "2025-03-01T10:15:30.123Z",
            "2025-03-01T10:15:30.123+01:00", "2025-03-01T10:15:30-0500"})
    void strictFormRefused(String text) {
        assertRefused(ApiDates.INVALID_DATE_FORMAT, () -> ApiDates.parseStrictWrite(text));
    }

    // 2.2.6, 2.2.7, 7.2.4: attribution startDate / endDate
    static final Clock NOON_NY_2026_03_10 = Clock.fixed(Instant.parse("2026-03-10T16:00:00Z"), ZoneOffset.UTC);

    @ParameterizedTest
    @CsvSource({
            "2026-03-01,                2026-03-10,                2026-03-01T05:00:00Z, 2026-03-11T03:59:59.999999999Z",
            "2026-03-01T00:00:00,       2026-03-10T11:59:59,       2026-03-01T05:00:00Z, 2026-03-10T15:59:59Z",
            "2026-03-01T00:00:00Z,      2026-03-10T16:00:00Z,      2026-03-01T00:00:00Z, 2026-03-10T16:00:00Z",
            "2026-03-01T00:00:00-05:00, 2026-03-10T11:00:00-05:00, 2026-03-01T05:00:00Z, 2026-03-10T16:00:00Z",
            "2026-03-01,                2026-03-01,                2026-03-01T05:00:00Z, 2026-03-02T04:59:59.999999999Z",
    })
    void attributionSpanAccepted(String start, String end, String from, String to) {
        ApiDates.Span span = ApiDates.attributionSpan(start, end, NY, NOON_NY_2026_03_10);
        assertEquals(Instant.parse(from), span.start());
        assertEquals(Instant.parse(to), span.end());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2026-03-01T00:00:00.000 | 2026-03-02T00:00:00     | Invalid start date",
            "2026-03-01T00:00:00     | 2026-03-02T00:00:00.500 | Invalid end date",
            "2026-03-01T00:00:00.000Z| 2026-03-02T00:00:00.000Z| Invalid start date",
            "2026-03-01T00:00:00Z    | 2026-03-02T00:00:00     | There was a problem processing the date in the request.",
            "2026-03-01              | 2026-03-02T00:00:00Z    | There was a problem processing the date in the request.",
            "2026-03-01              | 2026-03-11              | startDate or endDate cannot be in the future.",
            "2026-03-11              | 2026-03-11              | startDate or endDate cannot be in the future.",
            "2026-03-01T00:00:00     | 2026-03-10T12:00:01     | startDate or endDate cannot be in the future.",
            "2026-03-01T00:00:00Z    | 2026-03-10T16:00:01Z    | startDate or endDate cannot be in the future.",
            "2026-03-01              | 03/10/2026              | Invalid date format.",
    })
    void attributionSpanRefused(String start, String end, String message) {
        assertRefused(message, () -> ApiDates.attributionSpan(start, end, NY, NOON_NY_2026_03_10));
    }

    @Test
    void attributionTodayDependsOnTheAccountZone() {
        Clock lateEvening = Clock.fixed(Instant.parse("2026-03-11T02:00:00Z"), ZoneOffset.UTC); // 22:00 on the 10th in NY
        assertRefused(ApiDates.ATTRIBUTION_FUTURE, () -> ApiDates.attributionSpan("2026-03-11", "2026-03-11", NY, lateEvening));
        ApiDates.attributionSpan("2026-03-11", "2026-03-11", ZoneId.of("UTC"), lateEvening);
    }

    // 2.2.8: custom costs keep the wall clock, offset discarded, rendered without offset
    @ParameterizedTest
    @CsvSource({
            "2025-03-01T10:00:00-05:00, 2025-03-01T10:00:00",
            "2025-03-01T10:00:00+09:00, 2025-03-01T10:00:00",
            "2025-03-01T10:00:00Z,      2025-03-01T10:00:00",
            "2025-03-01T10:00,          2025-03-01T10:00:00",
            "2025-03-01,                2025-03-01T00:00:00",
            "2026-03-08T02:30:00-05:00, 2026-03-08T02:30:00",
    })
    void customCostWallClock(String text, String local) {
        LocalDateTime wall = ApiDates.parseWallClock(text);
        assertEquals(LocalDateTime.parse(local), wall);
        assertEquals(local, ApiDates.formatLocal(wall));
    }

    // 2.2.10: output in the account zone with its offset, across both daylight-saving changes
    @ParameterizedTest
    @CsvSource({
            "2026-03-08T06:59:59Z, America/New_York, 2026-03-08T01:59:59-05:00",
            "2026-03-08T07:00:00Z, America/New_York, 2026-03-08T03:00:00-04:00",
            "2026-11-01T05:30:00Z, America/New_York, 2026-11-01T01:30:00-04:00",
            "2026-11-01T06:30:00Z, America/New_York, 2026-11-01T01:30:00-05:00",
            "2026-07-01T12:00:00Z, UTC,              2026-07-01T12:00:00+00:00",
            "2026-07-01T12:00:00Z, Asia/Kolkata,     2026-07-01T17:30:00+05:30",
            "2026-07-01T12:00:00.987Z, Europe/Paris, 2026-07-01T14:00:00+02:00",
    })
    void outputInTheAccountZoneWithOffset(String instant, String zone, String expected) {
        assertEquals(expected, ApiDates.format(Instant.parse(instant), ZoneId.of(zone)));
    }

    @Test
    void outputOfUtcAndLocalForms() {
        assertEquals("2026-03-08T06:30:00Z", ApiDates.formatUtc(Instant.parse("2026-03-08T06:30:00.123Z")));
        assertEquals(null, ApiDates.format(null, NY));
        assertEquals(null, ApiDates.formatUtc(null));
        assertEquals(null, ApiDates.formatLegacy(null, NY));
        assertEquals(null, ApiDates.epochMillis(null));
    }

    // 2.3: the legacy EEE MMM dd HH:mm:ss zzz yyyy encoding (java.util.Date#toString), zone abbreviation follows DST
    @ParameterizedTest
    @CsvSource({
            "2026-03-08T06:30:00Z, America/New_York, Sun Mar 08 01:30:00 EST 2026",
            "2026-03-08T07:30:00Z, America/New_York, Sun Mar 08 03:30:00 EDT 2026",
            "2026-11-01T05:30:00Z, America/New_York, Sun Nov 01 01:30:00 EDT 2026",
            "2026-11-01T06:30:00Z, America/New_York, Sun Nov 01 01:30:00 EST 2026",
            "1970-01-01T00:00:00Z, UTC,              Thu Jan 01 00:00:00 UTC 1970",
            "2025-12-31T23:59:59Z, Europe/Paris,     Thu Jan 01 00:59:59 CET 2026",
            "2025-07-04T12:00:00Z, America/Los_Angeles, Fri Jul 04 05:00:00 PDT 2025",
    })
    void legacyEncoding(String instant, String zone, String expected) {
        assertEquals(expected, ApiDates.formatLegacy(Instant.parse(instant), ZoneId.of(zone)));
    }

    @Test
    void legacyEncodingMatchesJavaUtilDateToString() {
        java.util.TimeZone saved = java.util.TimeZone.getDefault();
        try {
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone("America/Chicago"));
            for (String t : new String[]{"2026-03-08T07:59:59Z", "2026-03-08T08:00:00Z", "2026-11-01T06:30:00Z", "2026-11-01T07:30:00Z"}) {
                Instant i = Instant.parse(t);
                assertEquals(java.util.Date.from(i).toString(), ApiDates.formatLegacy(i, ZoneId.of("America/Chicago")), t);
            }
        } finally {
            java.util.TimeZone.setDefault(saved);
        }
    }

    // 2.3: epoch milliseconds
    @ParameterizedTest
    @CsvSource({"1970-01-01T00:00:00Z, 0", "2026-03-08T06:30:00.123Z, 1772951400123", "1969-12-31T23:59:59.999Z, -1"})
    void epochMilliseconds(String instant, long millis) {
        assertEquals(millis, ApiDates.epochMillis(Instant.parse(instant)));
    }

    // 7.2.3: a bound in a future calendar month (as written, in the account zone's current month)
    static final Clock LAST_HOUR_OF_MARCH_IN_NY = Clock.fixed(Instant.parse("2026-04-01T03:30:00Z"), ZoneOffset.UTC);

    static QueryParams query(String... pairs) {
        StringBuilder uri = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            uri.append(pairs[i]).append('=').append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8)).append('&');
        }
        return QueryParams.of(TestParams.of(uri.toString()), QueryDeclaration.of(Dates.class, false));
    }

    interface Dates extends QueryParameter {
        Spec fromDate = Spec.date("from");
        Spec toDate = Spec.date("to");
        Spec updatedFromDate = Spec.date("updated from");
        Spec updatedToDate = Spec.date("updated to");
    }

    @Test
    void futureMonthIsJudgedOnTheMonthWrittenInTheAccountZone() {
        assertRefused("'toDate' cannot be in a future month: 2026-04-01",
                () -> DateRange.read(query("toDate", "2026-04-01"), "fromDate", "toDate", NY, true, LAST_HOUR_OF_MARCH_IN_NY));
        assertRefused("'fromDate' cannot be in a future month: 2026-05-15",
                () -> DateRange.read(query("fromDate", "2026-05-15T00:00:00Z"), "fromDate", "toDate", NY, true, LAST_HOUR_OF_MARCH_IN_NY));
        DateRange.read(query("toDate", "2026-03-31"), "fromDate", "toDate", NY, true, LAST_HOUR_OF_MARCH_IN_NY);
        DateRange.read(query("toDate", "2026-04-01"), "fromDate", "toDate", ZoneId.of("UTC"), true, LAST_HOUR_OF_MARCH_IN_NY);
        DateRange.read(query("toDate", "2026-04-01"), "fromDate", "toDate", NY, false, LAST_HOUR_OF_MARCH_IN_NY);
    }

    // 7.2.5: inverted ranges compare instants; a bare date is start of day as lower bound and end of day as upper
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "2025-03-01                | 2025-03-01                | ok",
            "2025-03-01T23:59:59       | 2025-03-01                | ok",
            "2025-03-01T10:00:00-05:00 | 2025-03-01T15:00:00Z      | ok",
            "2025-03-01T10:00:00-05:00 | 2025-03-01T14:59:59Z      | fromDate cannot be later than toDate",
            "2025-03-02                | 2025-03-01                | fromDate cannot be later than toDate",
            "2025-03-01T10:00:01       | 2025-03-01T10:00          | fromDate cannot be later than toDate",
            "2025-03-02T00:00:00Z      | 2025-03-01                | ok",
            "2025-03-02T05:00:00Z      | 2025-03-01                | fromDate cannot be later than toDate",
    })
    void invertedRanges(String from, String to, String outcome) {
        if ("ok".equals(outcome)) {
            DateRange r = DateRange.read(query("fromDate", from, "toDate", to), "fromDate", "toDate", NY, false);
            assertTrue(r.from().isPresent() && r.to().isPresent());
        } else {
            assertRefused(outcome, () -> DateRange.read(query("fromDate", from, "toDate", to), "fromDate", "toDate", NY, false));
        }
    }

    @Test
    void invertedMessageNamesThePair() {
        assertRefused("updatedFromDate cannot be later than updatedToDate", () -> DateRange.read(
                query("updatedFromDate", "2025-03-02", "updatedToDate", "2025-03-01"), "updatedFromDate", "updatedToDate", NY, false));
        assertTrue(DateRange.read(query(), "fromDate", "toDate", NY, true).isOpen());
    }
}
