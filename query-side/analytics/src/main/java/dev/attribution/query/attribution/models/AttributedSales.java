package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.models.scientific.ConversionTouches;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.query.attribution.roas.AdEntity;
import dev.attribution.query.attribution.clickhouse.ClicksByAd;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches;
import dev.attribution.query.attribution.clickhouse.CurrentConversionTouches.Type;
import dev.attribution.query.attribution.clickhouse.CurrentSales;
import dev.attribution.query.attribution.clickhouse.CurrentSales.Column;
import dev.attribution.query.attribution.clickhouse.ScopeAds;

import java.time.Instant;

/**
 * The sales credited to one {@link AdEntity} under the fixed preset of the ROAS and marginal-CAC endpoints: the click
 * rule of GET /attribution (docs/attribution-models.md, "Which click gets a sale") with {@code sourceConfiguration}
 * prioritize_paid, no attribution window (credited regardless of delay), {@code user_currency} prices. The credited
 * click comes from {@link ConversionTouches} like GET /attribution's; RoasReportTest checks both endpoints give the
 * same numbers.
 */
public final class AttributedSales {

    private AttributedSales() {
    }

    /**
     * A subquery with one row per sale of the account dated in [{@code from}, {@code to}] credited to an ad of
     * {@code ads}: {@code sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at, attributed_at} (the credited
     * click's time). The credited click comes from the conversion_touches projection ({@link ConversionTouches}), as
     * in GET /attribution; the current sales from {@link CurrentSales}, only those that may be credited to the ads.
     */
    public static String sql(String db, String accountId, ScopeAds ads, boolean lastClick, Instant from, Instant to) {
        String sales = CurrentSales.dated(db, accountId, from, to).keys("id AS conv_id, lead_id", CurrentSales.KEY)
                .columns(Column.SALE_DATE, Column.RECURRING, Column.FIRST_SALE, Column.PRICE)
                .rawWhere("id IN " + CurrentConversionTouches.candidates(db, accountId, Type.SALE, from, to, ads).parenthesized()).select().sql();
        String credited = ConversionTouches.credited(db, accountId, Type.SALE, from, to, AttributionRequest.SourceConfiguration.prioritize_paid,
                !lastClick, 0, ads);
        return "SELECT conv_id AS sale_id, lead_id, is_recurring, is_first_sale, toInt64(round(toFloat64(sale_price) * 100)) AS cents, sale_at, "
                + "attributed_at FROM (" + sales + ") AS s ALL INNER JOIN (" + credited + ") AS c USING (conv_id)";
    }

    /** The entity's clicks (lead set) with {@code click_date} in [start, end]: {@code lead_id, click_date}. */
    public static String clicks(String db, String accountId, ScopeAds ads, Instant start, Instant end) {
        return "SELECT lead_id, click_date FROM " + ClicksByAd.current(db, accountId, ads, start, end, false, false).subquery("c") + " WHERE lead_id != ''";
    }
}
