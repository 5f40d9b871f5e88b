package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Credit;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one owner of reading {@code sale_credits} (067_sale_credits.sql; PostgreSQL V103): one row per live sale and
 * per distinct ad among its conversion_touches picks, with the picks and the sale's amounts, sorted by (account, ad,
 * platform, sale date). The rows of a scope's ads and dates are deduplicated as {@code sale_credits_current} does
 * (same names), and a sale is kept on the one row whose ad is the ad its credited click names: so each credited sale
 * of the scope comes once, with its amounts, and no sale outside the scope's ads is read.
 */
public final class SaleCredits {

    /** The column of the conversion time a {@link Credit} over these rows names (its window's reference). */
    public static final String SALE_DATE = "sale_date";

    private SaleCredits() {
    }

    /**
     * The account's current sales dated in [from, to] that {@code credit} credits to an ad of {@code scope}: {@code
     * account_id, id} (the sale), {@code sale_at} (its date), {@code credit_lead_id} (its lead), the current values of
     * {@code columns} by their {@link CurrentSales.Column#current} names, and {@code attributed_ad, attributed_platform,
     * attributed_at} (the credited click's). The sale columns have sales' names ({@link CurrentSales.Column}; the
     * date is always there, as {@code sale_at}). {@code credit} is made over {@link #SALE_DATE}.
     */
    public static Select credited(String db, String accountId, Instant from, Instant to, Credit credit, ScopeAds scope,
                                  Set<CurrentSales.Column> columns) {
        List<String> items = new ArrayList<>(List.of("account_id", "sale_id AS id", "sale_date AS sale_at",
                CurrentRow.latest("lead_id", "credit_lead_id")));
        for (CurrentSales.Column c : columns) {
            if (c != CurrentSales.Column.SALE_DATE) {
                items.add(CurrentRow.latest(c.raw, c.current));
            }
        }
        items.addAll(CurrentConversionTouches.pickColumns(credit.paid()));
        items.addAll(CurrentConversionTouches.pickColumns(credit.organic()));
        return Select.of(items.toArray(String[]::new)).columns(credit.items()).from(db + ".sale_credits")
                .where(Sql.eq("account_id", accountId), scope.condition("ad", "platform"), Sql.between("sale_date", from, to))
                .groupBy("account_id", "ad", "platform", "sale_date", "sale_id")
                // the row of the credited click's ad: one per credited sale
                .having(CurrentRow.live(), "pick != 0", "attributed_ad = ad", "attributed_platform = platform");
    }
}
