package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.request.AttributionRequest.SourceConfiguration;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches;
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
     * A subquery with one row per conversion of {@code type} of the account dated in [from, to] (to null: no upper
     * bound) that the model credits to a click: {@code conv_id, attributed_ad, attributed_platform, attributed_at};
     * with {@code scopeAds} (or null) only conversions credited to one of those ads. The projection's current rows
     * come from {@link CurrentConversionTouches}.
     */
    public static String credited(String db, String accountId, Type type, Instant from, Instant to, SourceConfiguration sources,
                           boolean firstClick, int windowDays, ScopeAds scopeAds) {
        Pick paidPick = Pick.of(firstClick, false);
        Pick organicPick = Pick.of(firstClick, true);
        String p = paidPick.prefix;
        String o = organicPick.prefix;
        String dedup = CurrentConversionTouches.current(db, accountId, type, from, to, false, List.of(paidPick, organicPick), scopeAds).sql();
        String window = windowDays > 0 ? " AND %s >= touch_conversion_at - " + (windowDays * 86400L) : "";
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
        String picked = "SELECT conversion_id AS conv_id, if(pick = 1, " + p + "_ad, " + o + "_ad) AS attributed_ad, if(pick = 1, " + p
                + "_platform, " + o + "_platform) AS attributed_platform, if(pick = 1, " + p + "_click_date, " + o + "_click_date) AS attributed_at "
                + "FROM (SELECT *, " + pick + " AS pick FROM (" + dedup + ") AS d) AS k WHERE pick != 0";
        return scopeAds == null ? picked : "SELECT * FROM (" + picked + ") AS c WHERE "
                + scopeAds.condition("attributed_ad", "attributed_platform");
    }
}
