package dev.attribution.query.attribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /attribution/ad-account} (spec 4.5): the metrics of every ad of one ad account (all platforms it
 * exists on), as one row for the whole range or as date buckets cut by the range.
 */
@Singleton
public class AdAccountAttributionReport {

    /** Rows, and whether the ad account exists. */
    public record Result(List<Map<String, Object>> rows, boolean found) {
    }

    private final ClickHouseGateway clickHouse;
    private final AttributionQuery query;

    public AdAccountAttributionReport(ClickHouseGateway clickHouse, AttributionQuery query) {
        this.clickHouse = clickHouse;
        this.query = query;
    }

    public Result report(String accountId, ZoneId zone, AdAccountAttributionRequest r) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String id = ClickHouseSql.str(r.adAccountId());
        Optional<String> name = Optional.empty();
        boolean found = false;
        for (JsonNode row : clickHouse.select("SELECT name AS account_name FROM " + db + ".ad_accounts_current WHERE account_id = "
                + acc + " AND ad_account_id = " + id + " UNION ALL SELECT '' AS account_name FROM " + db
                + ".ads_current WHERE account_id = " + acc + " AND ad_account_id = " + id + " LIMIT 1 BY account_name")) {
            found = true;
            if (!row.get("account_name").asText().isEmpty()) {
                name = Optional.of(row.get("account_name").asText());
            }
        }
        if (!found) {
            return new Result(List.of(), false);
        }
        AttributionQuery.Scope scope = new AttributionQuery.Scope("ad_account_id = " + id, id);
        AttributionQuery.Params p = new AttributionQuery.Params(r.model() == AttributionRequest.Model.first_click, zone,
                r.span().start(), r.span().end(), r.usd(), r.dayOfAttribution(), r.sources(), r.windowDays(), r.filters(),
                List.of(), r.grouping());
        Map<String, MetricCatalog.Totals> totals = query.totals(accountId, scope, p);
        if (r.grouping().isPresent()) {
            return new Result(AttributionRows.bucketRows(r.grouping().get(), p.fromDay(), p.toDay(), totals, r.fields()), true);
        }
        MetricCatalog.Totals t = totals.getOrDefault(r.adAccountId(), new MetricCatalog.Totals());
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", r.adAccountId());
        for (String f : r.fields()) {
            row.put(f, MetricCatalog.cell(f, t, name.orElse(r.adAccountId()), null));
        }
        return new Result(List.of(row), true);
    }
}
