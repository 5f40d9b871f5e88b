package dev.attribution.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the encoding of a date in a response record (spec 2.3: four encodings, each written by one {@link ApiDates}
 * formatter). The OpenAPI document gives the field the encoding's description, format and pattern.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.METHOD})
public @interface ApiDate {

    Encoding value();

    enum Encoding {
        /** {@link ApiDates#format}. */
        OFFSET("ISO 8601 in the account's time zone with its offset, e.g. 2026-03-08T01:30:00-05:00", "date-time",
                "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}[+-]\\d{2}:\\d{2}$"),
        /** {@link ApiDates#formatUtc}. */
        UTC("ISO 8601 in UTC, e.g. 2026-03-08T06:30:00Z", "date-time", "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$"),
        /** {@link ApiDates#formatLegacy}. */
        LEGACY("legacy `EEE MMM dd HH:mm:ss zzz yyyy` in the account's time zone, e.g. Sun Mar 08 01:30:00 EST 2026",
                null, "^[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{2}:\\d{2}:\\d{2} \\S+ \\d{4}$"),
        /** {@link ApiDates#formatLocal}: a wall clock without offset (custom costs, spec 2.2.8). */
        LOCAL("wall-clock time as written, without offset: yyyy-MM-ddTHH:mm:ss", null,
                "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$"),
        /** {@link ApiDates#epochMillis}. */
        EPOCH_MILLIS("epoch milliseconds (UTC)", null, null);

        public final String description;
        public final String format;
        public final String pattern;

        Encoding(String description, String format, String pattern) {
            this.description = description;
            this.format = format;
            this.pattern = pattern;
        }
    }
}
