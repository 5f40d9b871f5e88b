package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.models.scientific.ConversionTouches;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.query.attribution.roas.AdEntity;
import dev.attribution.query.attribution.clickhouse.ClicksByAd;
import dev.attribution.query.attribution.clickhouse.CurrentSales.Column;
import dev.attribution.query.attribution.clickhouse.SaleCredits;
import dev.attribution.query.attribution.clickhouse.ScopeAds;

import java.time.Instant;
import java.util.EnumSet;

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

    /** The column of {@link #sql}'s rows naming the sale's lead. */
    public static final String LEAD = "credit_lead_id";

    /**
     * A SELECT with one row per sale of the account dated in [{@code from}, {@code to}] credited to an ad of
     * {@code ads}: {@code id} (the sale), {@link #LEAD}, {@code is_recurring, is_first_sale, cents, sale_at,
     * attributed_at} (the credited click's time). Sale and credited click come from the scope's rows of
     * {@link SaleCredits}, under the credit rule of GET /attribution ({@link ConversionTouches#credit}); the cents are
     * computed in the same SELECT (ClickHouse 18.16 analyses a statement again for each subquery layer).
     */
    public static String sql(String db, String accountId, ScopeAds ads, boolean lastClick, Instant from, Instant to) {
        return SaleCredits.credited(db, accountId, from, to, ConversionTouches.credit(AttributionRequest.SourceConfiguration.prioritize_paid,
                        !lastClick, 0, SaleCredits.SALE_DATE), ads, EnumSet.of(Column.RECURRING, Column.FIRST_SALE, Column.PRICE))
                .columns("toInt64(round(toFloat64(sale_price) * 100)) AS cents").sql();
    }

    /** The entity's clicks (lead set) with {@code click_date} in [start, end]: {@code lead_id, click_date}. */
    public static String clicks(String db, String accountId, ScopeAds ads, Instant start, Instant end) {
        return "SELECT lead_id, click_date FROM " + ClicksByAd.current(db, accountId, ads, start, end, false, false).subquery("c") + " WHERE lead_id != ''";
    }
}
