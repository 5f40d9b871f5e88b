package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The one owner of reading the {@code conversion_touches} projection (060_conversion_touches.sql, kept exact by
 * PostgreSQL triggers, V46) and its copy by ad, {@code conversion_touches_by_ad} (063): the rows of
 * {@code conversion_touches_current} (same dedup rule, same names) of the conversions of one type dated in a range.
 * Each version of a conversion sits in the month of its own time and carries that time, so the raw versions are
 * filtered by it before the dedup.
 */
public final class CurrentConversionTouches {

    /** The conversion types of the projection. */
    public enum Type {
        SALE, CALL
    }

    /** The four picks of a conversion's lead's clicks at or before it; {@code prefix} names its columns as the view does. */
    public enum Pick {
        LAST_PAID("last_paid", "lp"), LAST_ORGANIC("last_organic", "lo"), FIRST_PAID("first_paid", "fp"), FIRST_ORGANIC("first_organic", "fo");

        private final String raw;
        /** The view's prefix: {@code <prefix>_click_id, <prefix>_click_date, <prefix>_ad, <prefix>_platform}. */
        public final String prefix;

        Pick(String raw, String prefix) {
            this.raw = raw;
            this.prefix = prefix;
        }

        /** The paid or organic pick of the click models: the last ones, or with firstClick the first ones. */
        public static Pick of(boolean firstClick, boolean organic) {
            return firstClick ? (organic ? FIRST_ORGANIC : FIRST_PAID) : (organic ? LAST_ORGANIC : LAST_PAID);
        }
    }

    /**
     * Which click of a conversion's picks the model credits, as SQL over the view's pick columns: {@code pick} is 1
     * for the {@code paid} pick, 2 for the {@code organic} one, 0 for none; the credited click's ad, platform and date
     * follow from it. Made by the click model ({@code ConversionTouches.credit}); read from {@code conversion_touches}
     * and {@code sale_credits} alike (same pick columns).
     */
    public record Credit(Pick paid, Pick organic, String pick) {

        /** The select items {@code pick}, {@code attributed_ad}, {@code attributed_platform}, {@code attributed_at}. */
        public String[] items() {
            return new String[] {pick + " AS pick", chosen("ad") + " AS attributed_ad", chosen("platform") + " AS attributed_platform",
                    chosen("click_date") + " AS attributed_at"};
        }

        private String chosen(String column) {
            return "if(pick = 1, " + paid.prefix + "_" + column + ", " + organic.prefix + "_" + column + ")";
        }
    }

    private CurrentConversionTouches() {
    }

    /** The current values of a pick's four columns, named as the view names them. */
    public static List<String> pickColumns(Pick p) {
        return List.of(CurrentRow.latest(p.raw + "_click_id", p.prefix + "_click_id"), CurrentRow.latest(p.raw + "_click_date", p.prefix + "_click_date"),
                CurrentRow.latest(p.raw + "_ad", p.prefix + "_ad"), CurrentRow.latest(p.raw + "_platform", p.prefix + "_platform"));
    }

    /** The dating condition on the raw {@code conversion_at}: from {@code from}, to {@code to} (null: no upper bound). */
    public static String dated(Instant from, Instant to) {
        return "conversion_at >= " + Sql.dateTime(from) + (to == null ? "" : " AND conversion_at <= " + Sql.dateTime(to));
    }

    /**
     * The current rows of the account's conversions of {@code type} dated in [from, to] (to null: no bound), with
     * {@code picks}: {@code conversion_id}, {@code touch_lead_id} with {@code lead} (18.16 computes a subquery's
     * unused aggregates: ask only for what is read), {@code touch_conversion_at} and each pick's four columns. With
     * {@code scope} (or null) only the conversions that may be credited to one of its ads are deduplicated
     * ({@link #candidates}); the caller keeps those the credited click puts in the scope.
     */
    public static Select current(String db, String accountId, Type type, Instant from, Instant to, boolean lead, List<Pick> picks,
                                 ScopeAds scope) {
        List<String> items = new ArrayList<>(List.of("conversion_id"));
        if (lead) {
            items.add(CurrentRow.latest("lead_id", "touch_lead_id"));
        }
        items.add(CurrentRow.latest("conversion_at", "touch_conversion_at"));
        for (Pick p : picks) {
            items.addAll(pickColumns(p));
        }
        return Select.of(items.toArray(String[]::new)).from(db + ".conversion_touches")
                .where(Sql.eq("account_id", accountId), Sql.eq("conversion_type", type.name()), dated(from, to),
                        scope == null ? "" : "conversion_id IN " + candidates(db, accountId, type, from, to, scope).parenthesized())
                .groupBy("conversion_id").having(CurrentRow.live());
    }

    /**
     * The ids of the conversions of {@code type} dated in [from, to] (to null: no bound) that may be credited to one
     * of {@code scope}'s ads: those with a version holding a click of one of those ads ({@code conversion_touches_by_ad},
     * read by its sort key). A superset of the credited ones — the credit is always decided on the newest version in
     * {@code conversion_touches} — so it only spares deduplicating the rest.
     */
    public static Select candidates(String db, String accountId, Type type, Instant from, Instant to, ScopeAds scope) {
        return Select.of("conversion_id").from(db + ".conversion_touches_by_ad")
                .where(Sql.eq("account_id", accountId), Sql.eq("conversion_type", type.name()), scope.condition("ad", "platform"), dated(from, to));
    }
}
