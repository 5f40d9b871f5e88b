package dev.attribution.query.attribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code GET /attribution?attributionModel=scientific} (spec 4.5): first-order Markov-chain removal-effect attribution
 * over the touch paths of the range, as docs/attribution-models.md ("Scientific") defines it. The paths come from
 * ClickHouse; the chain is solved in Java ({@link MarkovChain}). Model-independent metrics (name, leads, clicks, cost)
 * come from {@link AttributionReport}.
 */
@Singleton
public class ScientificAttribution {

    /** The channel of touches that map to no entity at the requested level (organic, no ad, other platform). */
    public static final String OTHER = "(other)";

    static final String INVALID_DAYS = "Invalid days range for scientific attribution: ";

    /** A touch: click time (epoch seconds), click id, organic flag, channel. */
    public record Touch(long at, String clickId, boolean organic, String channel) {
    }

    /** A converting path's sale. */
    public record Sale(String saleId, String leadId, boolean recurring, boolean firstSale, long cents, List<Touch> touches) {
    }

    /** Fractional sums of one entity; money in (unrounded) cents. */
    public static final class Credit {
        public double sales;
        public double oneTimeSales;
        public double customers;
        public double uniqueCustomers;
        public double revenue;
        public double recurringRevenue;
        public double uniqueCustomersRevenue;
    }

    private final ClickHouseGateway clickHouse;
    private final AttributionReport report;

    public ScientificAttribution(ClickHouseGateway clickHouse, AttributionReport report) {
        this.clickHouse = clickHouse;
        this.report = report;
    }

    /** {@code scientificDaysRange}: 1-30, default 30 (spec 4.5, 8.2). */
    public static int daysRange(QueryParams q) {
        Optional<String> raw = q.string("scientificDaysRange");
        if (raw.isEmpty()) {
            return 30;
        }
        try {
            int v = Integer.parseInt(raw.get().trim());
            if (v >= 1 && v <= 30) {
                return v;
            }
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw ApiException.badRequest(INVALID_DAYS + raw.get());
    }

    /** The look-back of a path in days: scientificDaysRange, cut to windowAttributionDaysRange when that is set. */
    static int lookBack(int scientificDays, int windowDays) {
        return windowDays > 0 ? Math.min(scientificDays, windowDays) : scientificDays;
    }

    public AttributionReport.Result report(String accountId, ZoneId zone, AttributionRequest r, int scientificDays) {
        if (r.dayOfAttribution()) {
            throw ApiException.badRequest("dayOfAttribution is not supported yet with attributionModel scientific");
        }
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String platform = ClickHouseSql.str(r.level().platform());
        String column = r.level().column();
        long back = lookBack(scientificDays, r.windowDays()) * 86400L;
        String start = ClickHouseSql.dateTime(r.span().start());
        String end = ClickHouseSql.dateTime(r.span().end());
        String amount = r.usd() ? "ifNull(sale_usd_price, sale_price)" : "sale_price";
        String clickFilter = switch (r.sources()) {
            case only_paid -> " AND is_organic = 0";
            case only_organic -> " AND is_organic = 1";
            default -> "";
        };
        String clicks = "SELECT account_id, lead_id, click_id, click_date, is_organic, entity FROM (SELECT account_id, lead_id, id AS click_id, "
                + "click_date, is_organic, integration_type AS attributed_platform, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS attributed_ad FROM "
                + db + ".clicks_current WHERE account_id = " + acc + " AND lead_id != ''" + clickFilter + ") AS k ANY LEFT JOIN (SELECT ad_id AS attributed_ad, "
                + "platform AS attributed_platform, " + column + " AS entity FROM " + db + ".ads_current WHERE account_id = " + acc + " AND platform = "
                + platform + " AND ad_id != '') AS e USING (attributed_ad, attributed_platform)";
        String inRange = " AND sale_at >= " + start + " AND sale_at <= " + end;
        String sales = "SELECT account_id, lead_id, id AS sale_id, sale_at, is_recurring, is_first_sale, toInt64(round(toFloat64(" + amount
                + ") * 100)) AS cents FROM " + db + ".sales_current WHERE account_id = " + acc + inRange;
        String arrays = "groupArray(toUInt32(click_date)) AS touch_at, groupArray(click_id) AS touch_ids, groupArray(is_organic) AS touch_organic, "
                + "groupArray(entity) AS touch_entity";
        String convertingSql = "SELECT sale_id, lead_id, is_recurring, is_first_sale, cents, " + arrays + " FROM (" + sales + ") AS s ALL INNER JOIN ("
                + clicks + ") AS c USING (account_id, lead_id) WHERE click_date <= sale_at AND click_date >= sale_at - " + back
                + " GROUP BY sale_id, lead_id, is_recurring, is_first_sale, cents";
        String nonConvertingSql = "SELECT lead_id, " + arrays + " FROM (" + clicks + ") AS c WHERE click_date >= "
                + ClickHouseSql.dateTime(r.span().start().minusSeconds(back)) + " AND click_date <= " + end
                + " AND lead_id NOT IN (SELECT lead_id FROM " + db + ".sales_current WHERE account_id = " + acc + inRange + ") GROUP BY lead_id";
        List<Sale> converting = new ArrayList<>();
        for (JsonNode row : clickHouse.select(convertingSql)) {
            List<Touch> touches = path(row, r.sources());
            if (!touches.isEmpty()) {
                converting.add(new Sale(row.get("sale_id").asText(), row.get("lead_id").asText(), row.get("is_recurring").asInt() != 0,
                        row.get("is_first_sale").asInt() != 0, row.get("cents").asLong(), touches));
            }
        }
        List<List<Touch>> nonConverting = new ArrayList<>();
        for (JsonNode row : clickHouse.select(nonConvertingSql)) {
            List<Touch> touches = path(row, r.sources());
            if (!touches.isEmpty()) {
                nonConverting.add(touches);
            }
        }
        // Row order from ClickHouse is not fixed: sort, so the sums (and their last bits) are reproducible.
        converting.sort(Comparator.comparing(Sale::saleId).thenComparing(Sale::leadId));
        nonConverting.sort(Comparator.comparing(p -> p.get(0).clickId()));
        Map<String, Credit> credit = credit(converting, nonConverting);

        List<String> base = List.of("name", "leads", "clicks", "cost");
        AttributionReport.Result other = report.report(accountId, zone, r.withModelAndFields(AttributionRequest.Model.last_click, base));
        Map<String, Map<String, Object>> baseRows = new HashMap<>();
        other.rows().forEach(row -> baseRows.put((String) row.get("id"), row));
        Set<String> unknown = new LinkedHashSet<>(other.unknownIds());
        Map<String, String> names = new HashMap<>();
        List<String> missingNames = new ArrayList<>();
        for (String id : r.ids()) {
            if (!unknown.contains(id) && !baseRows.containsKey(id) && credit.containsKey(id)) {
                missingNames.add(id);
            }
        }
        if (!missingNames.isEmpty()) {
            String table = switch (column) {
                case "ad_id" -> "ads_current";
                case "ad_set_id" -> "ad_sets_current";
                default -> "ad_campaigns_current";
            };
            for (JsonNode row : clickHouse.select("SELECT " + column + " AS entity, name AS entity_name FROM " + db + "." + table
                    + " WHERE account_id = " + acc + " AND platform = " + platform + " AND entity IN " + ClickHouseSql.strList(missingNames))) {
                names.put(row.get("entity").asText(), row.get("entity_name").asText());
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String id : r.ids()) {
            if (unknown.contains(id)) {
                continue;
            }
            Map<String, Object> b = baseRows.get(id);
            Credit c = credit.get(id);
            long leads = b == null ? 0 : ((Number) b.get("leads")).longValue();
            long clickCount = b == null ? 0 : ((Number) b.get("clicks")).longValue();
            long cost = b == null ? 0 : ((BigDecimal) b.get("cost")).movePointRight(2).longValueExact();
            if (c == null && clickCount == 0 && cost == 0) {
                continue;
            }
            String name = b != null ? (String) b.get("name") : names.getOrDefault(id, id);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", id);
            for (String f : r.fields()) {
                row.put(f, metric(f, c == null ? new Credit() : c, leads, clickCount, cost, name));
            }
            rows.add(row);
        }
        return new AttributionReport.Result(rows, List.copyOf(unknown));
    }

    /** A path from one row of grouped arrays: sourceConfiguration prioritize_* applied, ordered by (time, click id). */
    private static List<Touch> path(JsonNode row, AttributionRequest.SourceConfiguration sources) {
        List<Touch> touches = new ArrayList<>();
        JsonNode at = row.get("touch_at");
        for (int i = 0; i < at.size(); i++) {
            String entity = row.get("touch_entity").get(i).asText();
            touches.add(new Touch(at.get(i).asLong(), row.get("touch_ids").get(i).asText(), row.get("touch_organic").get(i).asInt() != 0,
                    entity.isEmpty() ? OTHER : entity));
        }
        return order(touches, sources);
    }

    /** prioritize_paid keeps only the paid touches when there is one, prioritize_organic the reverse; then sorts. */
    public static List<Touch> order(List<Touch> touches, AttributionRequest.SourceConfiguration sources) {
        Boolean preferOrganic = switch (sources) {
            case prioritize_paid -> false;
            case prioritize_organic -> true;
            default -> null;
        };
        List<Touch> kept = touches;
        if (preferOrganic != null && touches.stream().anyMatch(t -> t.organic() == preferOrganic)) {
            kept = touches.stream().filter(t -> t.organic() == preferOrganic).toList();
        }
        return kept.stream().sorted(Comparator.comparingLong(Touch::at).thenComparing(Touch::clickId)).toList();
    }

    /** Builds the chain, solves it, and spreads every converting path's sale over its channels by removal effect. */
    public static Map<String, Credit> credit(List<Sale> converting, List<List<Touch>> nonConverting) {
        List<MarkovChain.Path> paths = new ArrayList<>();
        for (Sale s : converting) {
            paths.add(new MarkovChain.Path(s.touches().stream().map(Touch::channel).toList(), true));
        }
        for (List<Touch> p : nonConverting) {
            paths.add(new MarkovChain.Path(p.stream().map(Touch::channel).toList(), false));
        }
        Map<String, Double> effects = new MarkovChain(paths).removalEffects();
        // Per sale: channel → weight; then per lead averages for customers / unique customers.
        Map<String, Credit> credit = new LinkedHashMap<>();
        Map<String, Integer> salesOfLead = new HashMap<>();
        Map<String, Integer> firstSalesOfLead = new HashMap<>();
        for (Sale s : converting) {
            salesOfLead.merge(s.leadId(), 1, Integer::sum);
            if (s.firstSale()) {
                firstSalesOfLead.merge(s.leadId(), 1, Integer::sum);
            }
        }
        for (Sale s : converting) {
            Map<String, Double> w = weights(s.touches(), effects);
            for (var e : w.entrySet()) {
                if (e.getKey().equals(OTHER)) {
                    continue;
                }
                double x = e.getValue();
                Credit c = credit.computeIfAbsent(e.getKey(), k -> new Credit());
                c.sales += x;
                c.customers += x / salesOfLead.get(s.leadId());
                if (s.recurring()) {
                    c.recurringRevenue += x * s.cents();
                } else {
                    c.oneTimeSales += x;
                    c.revenue += x * s.cents();
                }
                if (s.firstSale()) {
                    c.uniqueCustomers += x / firstSalesOfLead.get(s.leadId());
                    c.uniqueCustomersRevenue += x * s.cents();
                }
            }
        }
        return credit;
    }

    /** The share of one sale per distinct channel of its path: removal effect over the path's sum of removal effects. */
    static Map<String, Double> weights(List<Touch> touches, Map<String, Double> effects) {
        Set<String> distinct = new LinkedHashSet<>();
        touches.forEach(t -> distinct.add(t.channel()));
        double sum = 0;
        for (String c : distinct) {
            sum += effects.get(c);
        }
        Map<String, Double> w = new LinkedHashMap<>();
        for (String c : distinct) {
            w.put(c, sum == 0 ? 1.0 / distinct.size() : effects.get(c) / sum);
        }
        return w;
    }

    /** Unrounded cents to whole cents: first to 1e-6 cent (drops floating-point noise), then HALF_UP. */
    public static long cents(double exact) {
        return BigDecimal.valueOf(exact).setScale(6, RoundingMode.HALF_UP).setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    static Object metric(String field, Credit c, long leads, long clicks, long cost, String name) {
        long revenue = cents(c.revenue);
        long total = revenue + cents(c.recurringRevenue);
        return switch (field) {
            case "name" -> name;
            case "sales" -> c.sales;
            case "one_time_sales" -> c.oneTimeSales;
            case "unique_sales", "customers" -> c.customers;
            case "unique_customers" -> c.uniqueCustomers;
            case "returning_customers" -> c.customers - c.uniqueCustomers;
            case "revenue" -> AttributionReport.money(revenue);
            case "recurring_revenue" -> AttributionReport.money(cents(c.recurringRevenue));
            case "total_revenue" -> AttributionReport.money(total);
            case "unique_customers_revenue" -> AttributionReport.money(cents(c.uniqueCustomersRevenue));
            case "leads" -> leads;
            case "clicks" -> clicks;
            case "cost" -> AttributionReport.money(cost);
            case "profit" -> AttributionReport.money(total - cost);
            case "roas" -> cost == 0 ? null : AttributionReport.ratio(total, cost);
            case "cac" -> cost == 0 ? AttributionReport.money(0) : c.uniqueCustomers == 0 ? null : per(cost, c.uniqueCustomers);
            case "cost_per_sale" -> c.sales == 0 ? null : per(cost, c.sales);
            case "cost_per_unique_customer" -> c.uniqueCustomers == 0 ? null : per(cost, c.uniqueCustomers);
            case "cost_per_lead" -> leads == 0 ? null : AttributionReport.perUnit(cost, leads);
            case "aov" -> c.sales == 0 ? null : per(total, c.sales);
            default -> null;
        };
    }

    /** Cents over a fractional count, rounded like money: to 1e-6 cent, then HALF_UP to the cent. */
    static BigDecimal per(long cents, double n) {
        return AttributionReport.money(cents(cents / n));
    }
}
