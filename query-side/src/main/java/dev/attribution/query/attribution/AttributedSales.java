package dev.attribution.query.attribution;

import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The sales credited to one {@link AdEntity} under the fixed preset of the ROAS and marginal-CAC endpoints: the click
 * rule of GET /attribution (docs/attribution-models.md, "Which click gets a sale") with {@code sourceConfiguration}
 * prioritize_paid, no attribution window (credited regardless of delay), {@code user_currency} prices. The credited
 * click comes from {@link ConversionTouches} like GET /attribution's; RoasReportTest checks both endpoints give the
 * same numbers.
 */
final class AttributedSales {

    private AttributedSales() {
    }

    /**
     * A subquery with one row per sale of the account dated in [{@code from}, {@code to}] (DateTime literals) credited
     * to an ad of {@code entity}: {@code sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at, attributed_at}
     * (the credited click's time). The credited click comes from the conversion_touches projection
     * ({@link ConversionTouches}), as in GET /attribution.
     */
    static String sql(String db, String accountId, ScopeAds ads, boolean lastClick, String from, String to) {
        String acc = ClickHouseSql.str(accountId);
        String dated = "sale_date >= " + from + " AND sale_date <= " + to;
        String convDated = dated.replace("sale_date", "conversion_at");
        String sales = "SELECT id AS conv_id, lead_id, argMax(sale_date, _version) AS sale_at, argMax(recurring, _version) AS is_recurring, "
                + "argMax(first_sale, _version) AS is_first_sale, toInt64(round(toFloat64(argMax(price, _version)) * 100)) AS cents FROM "
                + db + ".sales WHERE account_id = " + acc + " AND " + dated + " AND id IN (" + ConversionTouches.candidates(db, acc, "SALE",
                convDated, ads) + ") GROUP BY account_id, lead_id, id"
                + " HAVING argMax(is_deleted, _version) = 0 AND argMax(deleted, _version) = 0";
        String credited = ConversionTouches.credited(db, acc, "SALE", convDated, AttributionRequest.SourceConfiguration.prioritize_paid,
                !lastClick, 0, ads);
        return "SELECT conv_id AS sale_id, lead_id, is_recurring, is_first_sale, cents, sale_at, attributed_at FROM (" + sales
                + ") AS s ALL INNER JOIN (" + credited + ") AS c USING (conv_id)";
    }

    /** The ads of {@code entity} (one read, inlined into the SQL: {@link ScopeAds}). */
    static ScopeAds ads(ClickHouseGateway clickHouse, String accountId, AdEntity entity) {
        return ScopeAds.read(clickHouse, accountId, entity.filter());
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
    static String clicks(String db, String accountId, ScopeAds ads, String start, String end) {
        String acc = ClickHouseSql.str(accountId);
        return "SELECT lead_id, click_date FROM " + AttributionQuery.scopeClicks(db, acc, start, end, ads)
                + " AS c WHERE lead_id != ''";
    }
}
