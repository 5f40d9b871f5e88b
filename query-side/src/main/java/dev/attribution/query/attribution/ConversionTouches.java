package dev.attribution.query.attribution;

import dev.attribution.query.attribution.AttributionRequest.SourceConfiguration;

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
final class ConversionTouches {

    private ConversionTouches() {
    }

    /** Whether the credited click of these options follows from the projection's four picks. */
    static boolean derivable(boolean firstClick, int windowDays, boolean reportSourceVisibility) {
        return !reportSourceVisibility && !(firstClick && windowDays > 0);
    }

    /**
     * The ids of the conversions of {@code type} whose {@code conversion_at} satisfies {@code convWhere} that may be
     * credited to one of {@code scopeAds}: those with a version holding a click of one of those ads
     * (063_conversion_touches_by_ad.sql, read by its sort key). A superset of the credited ones — the credit itself is
     * always decided on the newest version in {@code conversion_touches} — so it only spares deduplicating the rest.
     */
    static String candidates(String db, String acc, String type, String convWhere, ScopeAds scopeAds) {
        return "SELECT conversion_id FROM " + db + ".conversion_touches_by_ad WHERE account_id = " + acc + " AND conversion_type = '"
                + type + "' AND " + scopeAds.condition("ad", "platform") + " AND " + convWhere;
    }

    /**
     * A subquery with one row per conversion of {@code type} ({@code SALE} or {@code CALL}) of the account whose
     * {@code conversion_at} satisfies {@code convWhere} (a condition on the raw column: a conversion's rows all carry
     * its time) and that the model credits to a click: {@code conv_id, attributed_ad, attributed_platform,
     * attributed_at}; with {@code scopeAds} (a subquery of (ad, platform) pairs, or null) only conversions credited to
     * one of those ads.
     */
    static String credited(String db, String acc, String type, String convWhere, SourceConfiguration sources,
                           boolean firstClick, int windowDays, ScopeAds scopeAds) {
        String p = firstClick ? "first_paid" : "last_paid";
        String o = firstClick ? "first_organic" : "last_organic";
        String dedup = "SELECT conversion_id AS conv_id, argMax(conversion_at, _version) AS t_at, "
                + "argMax(" + p + "_click_id, _version) AS p_id, argMax(" + p + "_click_date, _version) AS p_date, "
                + "argMax(" + p + "_ad, _version) AS p_ad, argMax(" + p + "_platform, _version) AS p_platform, "
                + "argMax(" + o + "_click_id, _version) AS o_id, argMax(" + o + "_click_date, _version) AS o_date, "
                + "argMax(" + o + "_ad, _version) AS o_ad, argMax(" + o + "_platform, _version) AS o_platform FROM " + db
                + ".conversion_touches WHERE account_id = " + acc + " AND conversion_type = '" + type + "' AND " + convWhere
                + (scopeAds == null ? "" : " AND conversion_id IN (" + candidates(db, acc, type, convWhere, scopeAds) + ")")
                + " GROUP BY conversion_id HAVING argMax(is_deleted, _version) = 0";
        String window = windowDays > 0 ? " AND %s >= t_at - " + (windowDays * 86400L) : "";
        String paid = "(p_id != ''" + String.format(window, "p_date") + ")";
        String organic = "(o_id != ''" + String.format(window, "o_date") + ")";
        // 1: the paid candidate, 2: the organic one, 0: no credited click
        String pick = switch (sources) {
            case only_paid -> "if(" + paid + ", 1, 0)";
            case only_organic -> "if(" + organic + ", 2, 0)";
            case prioritize_paid -> "multiIf(" + paid + ", 1, " + organic + ", 2, 0)";
            case prioritize_organic -> "multiIf(" + organic + ", 2, " + paid + ", 1, 0)";
            case all_sources -> "multiIf(" + paid + " AND " + organic + ", if(" + (firstClick
                    ? "p_date < o_date OR (p_date = o_date AND p_id < o_id)" : "p_date > o_date OR (p_date = o_date AND p_id > o_id)")
                    + ", 1, 2), " + paid + ", 1, " + organic + ", 2, 0)";
        };
        String picked = "SELECT conv_id, if(pick = 1, p_ad, o_ad) AS attributed_ad, if(pick = 1, p_platform, o_platform) "
                + "AS attributed_platform, if(pick = 1, p_date, o_date) AS attributed_at FROM (SELECT *, " + pick
                + " AS pick FROM (" + dedup + ") AS d) AS k WHERE pick != 0";
        return scopeAds == null ? picked : "SELECT * FROM (" + picked + ") AS c WHERE "
                + scopeAds.condition("attributed_ad", "attributed_platform");
    }
}
