package dev.attribution.query.paths;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.DateRange;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code GET /conversion-paths} on ClickHouse (spec 4.4, 2.16). Conversions are listed by conversion date then id
 * (keyset paging); a conversion's path is its lead's clicks on a source link at or before the conversion, within
 * the window when one is set, ordered by click date then click id.
 */
@Singleton
public class ConversionPaths {

    public enum Type { SALE, CALL, LEAD }

    /** Keyset position: the last conversion returned (epoch seconds, id). */
    public record Cursor(long at, String id) {
    }

    public record Page(List<ConversionPath> rows, Cursor next) {
    }

    private static final BigDecimal ZERO = new BigDecimal("0.00");

    private final ClickHouseGateway clickHouse;

    public ConversionPaths(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    Page page(String accountId, ZoneId zone, ConversionPathsQuery query) {
        Type type = query.type();
        DateRange range = query.range();
        Cursor after = query.after();
        int pageSize = query.pageSize();
        String db = clickHouse.database();
        String account = ClickHouseSql.str(accountId);
        String inner = switch (type) {
            case SALE -> "SELECT id, lead_id, sale_at AS at, toString(sale_price) AS price, toString(sale_discount) AS discount,"
                    + " toString(sale_hard_cost) AS hard_cost, toString(sale_refunded_amount) AS refunded, sale_currency AS currency,"
                    + " toString(ifNull(sale_usd_price, toDecimal64(-1, 2))) AS usd, is_first_sale AS first"
                    + " FROM " + db + ".sales_current WHERE account_id = " + account;
            case CALL -> "SELECT id, lead_id, call_at AS at, is_first_call AS first FROM " + db + ".calls_current WHERE account_id = " + account;
            case LEAD -> "SELECT id, id AS lead_id, created_at AS at FROM " + db + ".leads_current WHERE account_id = " + account;
        };
        StringBuilder where = new StringBuilder(" WHERE 1");
        range.from().ifPresent(f -> where.append(" AND at >= ").append(ClickHouseSql.dateTime(f)));
        range.to().ifPresent(t -> where.append(" AND at <= ").append(ClickHouseSql.dateTime(Instant.ofEpochSecond(t.getEpochSecond()))));
        if (after != null) {
            where.append(" AND (toUInt32(at) > ").append(after.at()).append(" OR (toUInt32(at) = ").append(after.at())
                    .append(" AND id > ").append(ClickHouseSql.str(after.id())).append("))");
        }
        List<JsonNode> rows = clickHouse.select("SELECT *, toUInt32(at) AS ts FROM (" + inner + ") AS conversions" + where
                + " ORDER BY ts ASC, id ASC LIMIT " + (pageSize + 1));
        Cursor next = null;
        if (rows.size() > pageSize) {
            rows = rows.subList(0, pageSize);
            JsonNode last = rows.get(pageSize - 1);
            next = new Cursor(last.get("ts").asLong(), last.get("id").asText());
        }
        Map<String, List<JsonNode>> touches = touches(db, account, rows);
        Map<String, String> adNames = adNames(db, account, touches);
        List<ConversionPath> out = new ArrayList<>();
        for (JsonNode r : rows) {
            long at = r.get("ts").asLong();
            List<ConversionPath.Touch> path = new ArrayList<>();
            for (JsonNode t : touches.getOrDefault(r.get("lead_id").asText(), List.of())) {
                long clicked = t.get("ts").asLong();
                if (clicked <= at && (query.windowDays() == 0 || clicked >= at - query.windowDays() * 86_400L)) {
                    path.add(touch(t, zone, adNames));
                }
            }
            String created = ApiDates.format(Instant.ofEpochSecond(at), zone);
            String leadId = r.get("lead_id").asText();
            out.add(switch (type) {
                case SALE -> {
                    ConversionPath.Price price = new ConversionPath.Price(r.get("currency").asText(), dec(r, "price"),
                            dec(r, "discount"), dec(r, "hard_cost"), dec(r, "refunded"));
                    yield new ConversionPath("sle-" + r.get("id").asText(), leadId, created, price, usd(price, dec(r, "usd")),
                            r.get("first").asInt() == 1, path);
                }
                case CALL -> {
                    ConversionPath.Price none = new ConversionPath.Price("USD", ZERO, ZERO, ZERO, ZERO);
                    yield new ConversionPath("cll-" + r.get("id").asText(), leadId, created, none, none, r.get("first").asInt() == 1, path);
                }
                case LEAD -> new ConversionPath(leadId, leadId, created, null, null, null, path);
            });
        }
        return new Page(out, next);
    }

    /** Every source-link click of the page's leads, by lead, oldest first, with its source link's attributes. */
    private Map<String, List<JsonNode>> touches(String db, String account, List<JsonNode> rows) {
        Set<String> leads = new LinkedHashSet<>();
        rows.forEach(r -> leads.add(r.get("lead_id").asText()));
        Map<String, List<JsonNode>> byLead = new HashMap<>();
        if (leads.isEmpty()) {
            return byLead;
        }
        String sql = "SELECT c.lead_id AS lead_id, c.id AS click_id, toUInt32(c.click_date) AS ts, c.source_link_tag AS tag,"
                + " c.is_organic AS click_organic, c.integration_type AS click_platform, c.ad_source_id AS click_ad_source_id,"
                + " c.adspend_ad_id AS adspend_ad_id, c.ad_source_click_id AS ad_source_click_id,"
                + " s.link_id AS link_id, s.link_name AS link_name, s.link_disregarded AS link_disregarded, s.link_organic AS link_organic,"
                + " s.link_platform AS link_platform, s.link_ad_source_id AS link_ad_source_id, s.link_ad_account_id AS link_ad_account_id"
                + " FROM (SELECT lead_id, id, click_date, source_link_tag, is_organic, integration_type, ad_source_id, adspend_ad_id,"
                + " ad_source_click_id FROM " + db + ".clicks_current WHERE account_id = " + account
                + " AND source_link_tag != '' AND lead_id IN " + ClickHouseSql.strList(leads) + ") AS c"
                + " ANY LEFT JOIN (SELECT tag AS source_link_tag, id AS link_id, name AS link_name, disregarded AS link_disregarded,"
                + " organic AS link_organic, platform AS link_platform, ad_source_id AS link_ad_source_id, ad_account_id AS link_ad_account_id"
                + " FROM " + db + ".source_links_current WHERE account_id = " + account + " AND deleted_at IS NULL) AS s USING source_link_tag"
                + " ORDER BY lead_id, ts, click_id";
        for (JsonNode t : clickHouse.select(sql)) {
            byLead.computeIfAbsent(t.get("lead_id").asText(), k -> new ArrayList<>()).add(t);
        }
        return byLead;
    }

    /** The names of the touched ads (spec 2.6 SourceLinkAd.name, as GET /ads renders them), by ad id; unnamed ads left out. */
    private Map<String, String> adNames(String db, String account, Map<String, List<JsonNode>> touches) {
        Set<String> ids = new LinkedHashSet<>();
        touches.values().forEach(list -> list.forEach(t -> {
            String id = text(t, "adspend_ad_id");
            if (id != null) {
                ids.add(id);
            }
        }));
        Map<String, String> names = new HashMap<>();
        if (ids.isEmpty()) {
            return names;
        }
        for (JsonNode r : clickHouse.select("SELECT ad_id, any(name) AS ad_name FROM " + db + ".ads_current WHERE account_id = " + account
                + " AND name != '' AND ad_id IN " + ClickHouseSql.strList(ids) + " GROUP BY ad_id")) {
            names.put(r.get("ad_id").asText(), r.get("ad_name").asText());
        }
        return names;
    }

    private static ConversionPath.Touch touch(JsonNode t, ZoneId zone, Map<String, String> adNames) {
        String tag = t.get("tag").asText();
        String linkId = text(t, "link_id");
        String platform = firstNonEmpty(text(t, "click_platform"), text(t, "link_platform"));
        String adSourceId = firstNonEmpty(text(t, "click_ad_source_id"), text(t, "link_ad_source_id"));
        String adAccountId = text(t, "link_ad_account_id");
        String adId = text(t, "adspend_ad_id");
        boolean google = platform != null && platform.startsWith("GOOGLE");
        return new ConversionPath.Touch(
                linkId,
                linkId != null && text(t, "link_name") != null ? text(t, "link_name") : tag.substring(1),
                tag,
                t.path("link_disregarded").asInt(0) == 1,
                t.path("click_organic").asInt(0) == 1 || t.path("link_organic").asInt(0) == 1,
                ApiDates.format(Instant.ofEpochSecond(t.get("ts").asLong()), zone),
                t.get("click_id").asText(),
                adSourceId == null && platform == null ? null : new ConversionPath.AdSource(adSourceId, adAccountId, platform),
                adId == null ? null : new ConversionPath.SourceLinkAd(adNames.get(adId), adId),
                google ? text(t, "ad_source_click_id") : null);
    }

    /** The USD amounts: as stored when the sale is in USD, else scaled by the stored USD price over the price. */
    private static ConversionPath.Price usd(ConversionPath.Price p, BigDecimal usdPrice) {
        if ("USD".equalsIgnoreCase(p.currency()) || usdPrice.signum() < 0) {
            return "USD".equalsIgnoreCase(p.currency()) ? new ConversionPath.Price("USD", p.price(), p.discount(), p.hardCost(), p.refunded()) : null;
        }
        if (p.price().signum() == 0) {
            return new ConversionPath.Price("USD", usdPrice, ZERO, ZERO, ZERO);
        }
        BigDecimal rate = usdPrice.divide(p.price(), 12, RoundingMode.HALF_EVEN);
        return new ConversionPath.Price("USD", usdPrice, scale(p.discount(), rate), scale(p.hardCost(), rate), scale(p.refunded(), rate));
    }

    private static BigDecimal scale(BigDecimal v, BigDecimal rate) {
        return v.multiply(rate).setScale(2, RoundingMode.HALF_EVEN);
    }

    private static BigDecimal dec(JsonNode r, String field) {
        return new BigDecimal(r.get(field).asText()).setScale(2, RoundingMode.HALF_EVEN);
    }

    private static String text(JsonNode row, String field) {
        JsonNode v = row.get(field);
        return v == null || v.isNull() || v.asText().isEmpty() ? null : v.asText();
    }

    private static String firstNonEmpty(String a, String b) {
        return a != null ? a : b;
    }
}
