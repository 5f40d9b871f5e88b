package dev.attribution.query.attribution;

import dev.attribution.clickhouse.ClickHouseSql;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The sales credited to one {@link AdEntity} under the fixed preset of the ROAS and marginal-CAC endpoints: the click
 * rule of GET /attribution (docs/attribution-models.md, "Which click gets a sale") with {@code sourceConfiguration}
 * prioritize_paid, no attribution window (credited regardless of delay), {@code user_currency} prices. It mirrors
 * {@link AttributionReport}'s SQL for that preset; RoasReportTest checks both endpoints give the same numbers.
 */
final class AttributedSales {

    private AttributedSales() {
    }

    /**
     * A subquery with one row per sale of the account credited to an ad of {@code entity}: {@code sale_id, lead_id,
     * is_recurring, is_first_sale, cents, sale_at, attributed_at} (the credited click's time).
     */
    static String sql(String db, String accountId, AdEntity entity, boolean lastClick) {
        String acc = ClickHouseSql.str(accountId);
        String key = "concat(toString(" + (lastClick ? "if(is_organic = 0, 1, 0)" : "if(is_organic = 0, 0, 1)")
                + "), toString(toUInt32(click_date)), click_id)";
        String pick = lastClick ? "argMax" : "argMin";
        String sales = "SELECT account_id, lead_id, id AS sale_id, sale_at, is_recurring, is_first_sale, "
                + "toInt64(round(toFloat64(sale_price) * 100)) AS cents FROM " + db + ".sales_current WHERE account_id = " + acc;
        String clicks = "SELECT account_id, lead_id, id AS click_id, click_date, is_organic, integration_type AS click_platform, "
                + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS click_ad FROM " + db
                + ".clicks_current WHERE account_id = " + acc + " AND lead_id != ''";
        String attributed = "SELECT sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at, " + pick + "(click_ad, " + key
                + ") AS attributed_ad, " + pick + "(click_platform, " + key + ") AS attributed_platform, " + pick
                + "(click_date, " + key + ") AS attributed_at FROM (" + sales + ") AS s ALL INNER JOIN (" + clicks
                + ") AS c USING (account_id, lead_id) WHERE click_date <= sale_at"
                + " GROUP BY sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at";
        String ads = "SELECT ad_id AS attributed_ad, platform AS attributed_platform FROM " + db
                + ".ads_current WHERE account_id = " + acc + " AND " + entity.filter();
        return "SELECT sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at, attributed_at FROM (" + attributed
                + ") AS a ALL INNER JOIN (" + ads + ") AS e USING (attributed_ad, attributed_platform)";
    }

    /** A Date literal, clamped to ClickHouse's Date range (a bound before 1970 cannot match any row anyway). */
    static String day(LocalDate d) {
        LocalDate min = LocalDate.of(1970, 1, 1);
        return "toDate('" + (d.isBefore(min) ? min : d) + "')";
    }

    /** A DateTime literal, clamped at the epoch for the same reason. */
    static String time(Instant t) {
        return ClickHouseSql.dateTime(t.isBefore(Instant.EPOCH) ? Instant.EPOCH : t);
    }

    /** The entity's clicks (lead set) with {@code click_date} in [start, end]: {@code lead_id, click_date}. */
    static String clicks(String db, String accountId, AdEntity entity, String start, String end) {
        String acc = ClickHouseSql.str(accountId);
        String ads = "SELECT ad_id AS attributed_ad, platform AS attributed_platform FROM " + db
                + ".ads_current WHERE account_id = " + acc + " AND " + entity.filter();
        return "SELECT lead_id, click_date FROM (SELECT lead_id, click_date, integration_type AS attributed_platform, "
                + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS attributed_ad FROM " + db
                + ".clicks_current WHERE account_id = " + acc + " AND lead_id != '' AND click_date >= " + start
                + " AND click_date <= " + end + ") AS c ALL INNER JOIN (" + ads + ") AS e USING (attributed_ad, attributed_platform)";
    }
}
