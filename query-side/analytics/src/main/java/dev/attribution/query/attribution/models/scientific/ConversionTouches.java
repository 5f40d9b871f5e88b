package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.request.AttributionRequest.SourceConfiguration;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Credit;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Pick;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Type;
import dev.attribution.query.attribution.clickhouse.ScopeAds;

import java.time.Instant;
import java.util.List;

/**
 * The credited click of each conversion read from the {@code conversion_touches} projection (060_conversion_touches.sql,
 * kept exact by PostgreSQL triggers, V46): the last paid, last organic, first paid and first organic click of the
 * conversion's lead at or before it. The click rule of docs/attribution-models.md — among the lead's clicks at or
 * before the conversion, the preferred kind first, then the latest (first_click: earliest) by (click date, click id)
 * — derives from them for last_click under every sourceConfiguration and window, and for first_click without a
 * window: the candidate of a kind is its last (first) click; a window drops a last click older than it, and with it
 * every older click of that kind. first_click with a window and reportSourceVisibility (a click set filtered by tag)
 * do not derive: {@link #derivable} says so and {@link AttributionQuery} joins clicks for them.
 */
public final class ConversionTouches {

    private ConversionTouches() {
    }

    /** Whether the credited click of these options follows from the projection's four picks. */
    public static boolean derivable(boolean firstClick, int windowDays, boolean reportSourceVisibility) {
        return !reportSourceVisibility && !(firstClick && windowDays > 0);
    }

    /**
     * The model's credit over a conversion's picks (docs/attribution-models.md): with {@code windowDays} > 0 a pick
     * qualifies when not older than {@code conversionAt} (the column of the conversion time) minus the window.
     */
    public static Credit credit(SourceConfiguration sources, boolean firstClick, int windowDays, String conversionAt) {
        Pick paidPick = Pick.of(firstClick, false);
        Pick organicPick = Pick.of(firstClick, true);
        String p = paidPick.prefix;
        String o = organicPick.prefix;
        String window = windowDays > 0 ? " AND %s >= " + conversionAt + " - " + (windowDays * 86400L) : "";
        String paid = "(" + p + "_click_id != ''" + String.format(window, p + "_click_date") + ")";
        String organic = "(" + o + "_click_id != ''" + String.format(window, o + "_click_date") + ")";
        // 1: the paid candidate, 2: the organic one, 0: no credited click
        String pick = switch (sources) {
            case only_paid -> "if(" + paid + ", 1, 0)";
            case only_organic -> "if(" + organic + ", 2, 0)";
            case prioritize_paid -> "multiIf(" + paid + ", 1, " + organic + ", 2, 0)";
            case prioritize_organic -> "multiIf(" + organic + ", 2, " + paid + ", 1, 0)";
            case all_sources -> "multiIf(" + paid + " AND " + organic + ", if(" + (firstClick
                    ? "%1$s_click_date < %2$s_click_date OR (%1$s_click_date = %2$s_click_date AND %1$s_click_id < %2$s_click_id)"
                    : "%1$s_click_date > %2$s_click_date OR (%1$s_click_date = %2$s_click_date AND %1$s_click_id > %2$s_click_id)").formatted(p, o)
                    + ", 1, 2), " + paid + ", 1, " + organic + ", 2, 0)";
        };
        return new Credit(paidPick, organicPick, pick);
    }

    /**
     * A subquery with one row per conversion of {@code type} of the account dated in [from, to] (to null: no upper
     * bound) that the model credits to a click: {@code conv_id, attributed_ad, attributed_platform, attributed_at};
     * with {@code scopeAds} (or null) only conversions credited to one of those ads. The projection's current rows
     * come from {@link CurrentConversionTouches}; the subquery has more columns (the picks' own), none named like a
     * column of sales or calls.
     */
    public static String credited(String db, String accountId, Type type, Instant from, Instant to, SourceConfiguration sources,
                           boolean firstClick, int windowDays, ScopeAds scopeAds) {
        Credit credit = credit(sources, firstClick, windowDays, "touch_conversion_at");
        // one level: the pick and the credited click are named in the dedup's own SELECT and kept by its HAVING (each
        // nested level costs ClickHouse 18.16 another analysis of the statement and another run of its IN subqueries)
        return CurrentConversionTouches.current(db, accountId, type, from, to, false, List.of(credit.paid(), credit.organic()), scopeAds)
                .columns("conversion_id AS conv_id").columns(credit.items())
                .having("pick != 0", scopeAds == null ? "" : scopeAds.condition("attributed_ad", "attributed_platform"))
                .sql();
    }
}
