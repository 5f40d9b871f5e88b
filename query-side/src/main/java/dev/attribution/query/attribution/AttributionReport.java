package dev.attribution.query.attribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /attribution} on ClickHouse (spec 4.5): each sale is credited to one click of its lead (the model picks
 * it, see docs/attribution-models.md); rows are the requested ad-platform entities. Money is summed in cents.
 */
@Singleton
public class AttributionReport {

    /** The result: rows in the order of the requested ids, and the ids that do not exist at the level. */
    public record Result(List<Map<String, Object>> rows, List<String> unknownIds) {
    }

    /** Raw sums of one entity, money in cents. */
    record Sums(long sales, long oneTimeSales, long uniqueSales, long uniqueCustomers, long customers,
                long revenue, long recurringRevenue, long uniqueCustomersRevenue, long leads, long clicks, long cost) {
    }

    private final ClickHouseGateway clickHouse;

    public AttributionReport(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    public Result report(String accountId, ZoneId zone, AttributionRequest r) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String platform = ClickHouseSql.str(r.level().platform());
        String column = r.level().column();
        String ids = ClickHouseSql.strList(r.ids());
        Map<String, String> names = new HashMap<>();
        String nameSql = switch (column) {
            case "ad_id" -> "SELECT ad_id AS entity, name AS entity_name FROM " + db + ".ads_current";
            case "ad_set_id" -> "SELECT ad_set_id AS entity, name AS entity_name FROM " + db + ".ad_sets_current";
            default -> "SELECT campaign_id AS entity, name AS entity_name FROM " + db + ".ad_campaigns_current";
        };
        for (JsonNode row : clickHouse.select(nameSql + " WHERE account_id = " + acc + " AND platform = " + platform
                + " AND entity IN " + ids)) {
            names.put(row.get("entity").asText(), row.get("entity_name").asText());
        }
        for (JsonNode row : clickHouse.select("SELECT DISTINCT " + column + " AS entity FROM " + db + ".ads_current WHERE account_id = "
                + acc + " AND platform = " + platform + " AND " + column + " IN " + ids)) {
            names.putIfAbsent(row.get("entity").asText(), row.get("entity").asText());
        }
        String start = ClickHouseSql.dateTime(r.span().start());
        String end = ClickHouseSql.dateTime(r.span().end());
        String amount = r.usd() ? "ifNull(sale_usd_price, sale_price)" : "sale_price";
        String clickFilter = switch (r.sources()) {
            case only_paid -> " AND is_organic = 0";
            case only_organic -> " AND is_organic = 1";
            default -> "";
        };
        boolean last = r.model() == AttributionRequest.Model.last_click;
        String preferred = switch (r.sources()) {
            case prioritize_paid -> "is_organic = 0";
            case prioritize_organic -> "is_organic = 1";
            default -> "1";
        };
        // The order key: the preferred kind of click first, then time, then click id (ties).
        String key = "concat(toString(" + (last ? "if(" + preferred + ", 1, 0)" : "if(" + preferred + ", 0, 1)")
                + "), toString(toUInt32(click_date)), click_id)";
        String pick = last ? "argMax" : "argMin";
        String sales = "SELECT account_id, lead_id, id AS sale_id, sale_at, is_recurring, is_first_sale, toInt64(round(toFloat64("
                + amount + ") * 100)) AS cents FROM " + db + ".sales_current WHERE account_id = " + acc
                + (r.dayOfAttribution() ? "" : " AND sale_at >= " + start + " AND sale_at <= " + end);
        String clicks = "SELECT account_id, lead_id, id AS click_id, click_date, is_organic, integration_type AS click_platform, "
                + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS click_ad FROM " + db + ".clicks_current WHERE account_id = "
                + acc + " AND lead_id != ''" + clickFilter;
        String window = r.windowDays() > 0 ? " AND click_date >= sale_at - " + (r.windowDays() * 86400L) : "";
        String attributed = "SELECT sale_id, lead_id, is_recurring, is_first_sale, cents, " + pick + "(click_ad, " + key
                + ") AS attributed_ad, " + pick + "(click_platform, " + key + ") AS attributed_platform, " + pick + "(click_date, "
                + key + ") AS attributed_at FROM (" + sales + ") AS s ALL INNER JOIN (" + clicks + ") AS c USING (account_id, lead_id)"
                + " WHERE click_date <= sale_at" + window + " GROUP BY sale_id, lead_id, is_recurring, is_first_sale, cents";
        String entities = "SELECT ad_id AS attributed_ad, platform AS attributed_platform, " + column + " AS entity FROM " + db
                + ".ads_current WHERE account_id = " + acc + " AND platform = " + platform + " AND " + column + " IN " + ids;
        String salesSql = "SELECT entity, count() AS n_sales, countIf(is_recurring = 0) AS n_one_time, uniqExact(lead_id) AS n_unique_sales, "
                + "uniqExactIf(lead_id, is_first_sale = 1) AS n_unique_customers, uniqExact(lead_id) AS n_customers, "
                + "sumIf(cents, is_recurring = 0) AS c_revenue, sumIf(cents, is_recurring = 1) AS c_recurring, "
                + "sumIf(cents, is_first_sale = 1) AS c_first FROM (" + attributed + ") AS a ALL INNER JOIN (" + entities
                + ") AS e USING (attributed_ad, attributed_platform)"
                + (r.dayOfAttribution() ? " WHERE attributed_at >= " + start + " AND attributed_at <= " + end : "")
                + " GROUP BY entity";
        Map<String, long[]> sums = new HashMap<>();
        for (JsonNode row : clickHouse.select(salesSql)) {
            long[] s = sums.computeIfAbsent(row.get("entity").asText(), k -> new long[11]);
            s[0] = row.get("n_sales").asLong();
            s[1] = row.get("n_one_time").asLong();
            s[2] = row.get("n_unique_sales").asLong();
            s[3] = row.get("n_unique_customers").asLong();
            s[4] = row.get("n_customers").asLong();
            s[5] = row.get("c_revenue").asLong();
            s[6] = row.get("c_recurring").asLong();
            s[7] = row.get("c_first").asLong();
        }
        String leadsSql = "SELECT entity, uniqExact(lead_id) AS n_leads, count() AS n_clicks FROM (SELECT lead_id, integration_type AS attributed_platform, "
                + "if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS attributed_ad FROM " + db + ".clicks_current WHERE account_id = " + acc
                + " AND lead_id != '' AND click_date >= " + start + " AND click_date <= " + end + clickFilter + ") AS c ALL INNER JOIN ("
                + entities + ") AS e USING (attributed_ad, attributed_platform) GROUP BY entity";
        for (JsonNode row : clickHouse.select(leadsSql)) {
            long[] s = sums.computeIfAbsent(row.get("entity").asText(), k -> new long[11]);
            s[8] = row.get("n_leads").asLong();
            s[9] = row.get("n_clicks").asLong();
        }
        LocalDate from = LocalDate.ofInstant(r.span().start(), zone);
        LocalDate to = LocalDate.ofInstant(r.span().end(), zone);
        String costSql = "SELECT " + column + " AS entity, sum(toInt64(round(toFloat64(spend) * 100))) AS c_cost FROM " + db
                + ".ad_spend_daily_current WHERE account_id = " + acc + " AND platform = " + platform + " AND " + column + " IN " + ids
                + " AND day >= toDate('" + from + "') AND day <= toDate('" + to + "') GROUP BY entity";
        for (JsonNode row : clickHouse.select(costSql)) {
            long[] s = sums.computeIfAbsent(row.get("entity").asText(), k -> new long[11]);
            s[10] = row.get("c_cost").asLong();
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String id : r.ids()) {
            if (!names.containsKey(id)) {
                unknown.add(id);
                continue;
            }
            long[] s = sums.get(id);
            if (s == null) {
                continue;
            }
            Sums x = new Sums(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10]);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            for (String f : r.fields()) {
                row.put(f, metric(f, x, names.get(id)));
            }
            rows.add(row);
        }
        return new Result(rows, unknown);
    }

    /** One metric of 4.5.1 from the sums (docs/attribution-models.md defines each). */
    static Object metric(String field, Sums s, String name) {
        long total = s.revenue() + s.recurringRevenue();
        return switch (field) {
            case "name" -> name;
            case "sales" -> s.sales();
            case "one_time_sales" -> s.oneTimeSales();
            case "unique_sales" -> s.uniqueSales();
            case "unique_customers" -> s.uniqueCustomers();
            case "customers" -> s.customers();
            case "returning_customers" -> s.customers() - s.uniqueCustomers();
            case "revenue" -> money(s.revenue());
            case "recurring_revenue" -> money(s.recurringRevenue());
            case "total_revenue" -> money(total);
            case "unique_customers_revenue" -> money(s.uniqueCustomersRevenue());
            case "leads" -> s.leads();
            case "clicks" -> s.clicks();
            case "cost" -> money(s.cost());
            case "profit" -> money(total - s.cost());
            case "roas" -> s.cost() == 0 ? null : ratio(total, s.cost());
            case "cac" -> s.cost() == 0 ? money(0) : s.uniqueCustomers() == 0 ? null : perUnit(s.cost(), s.uniqueCustomers());
            case "cost_per_sale" -> s.sales() == 0 ? null : perUnit(s.cost(), s.sales());
            case "cost_per_unique_customer" -> s.uniqueCustomers() == 0 ? null : perUnit(s.cost(), s.uniqueCustomers());
            case "cost_per_lead" -> s.leads() == 0 ? null : perUnit(s.cost(), s.leads());
            case "aov" -> s.sales() == 0 ? null : perUnit(total, s.sales());
            default -> null;
        };
    }

    static BigDecimal money(long cents) {
        return BigDecimal.valueOf(cents, 2);
    }

    static BigDecimal perUnit(long cents, long n) {
        return BigDecimal.valueOf(cents, 2).divide(BigDecimal.valueOf(n), 2, RoundingMode.HALF_UP);
    }

    static BigDecimal ratio(long a, long b) {
        return BigDecimal.valueOf(a).divide(BigDecimal.valueOf(b), 2, RoundingMode.HALF_UP);
    }
}
