package dev.attribution.query.attribution.models;

import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.metrics.MetricCatalog;
import dev.attribution.query.attribution.models.scientific.PathCredit;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.query.attribution.request.AdAccountAttributionRequest;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.query.attribution.roas.AdEntity;
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


    private final ClickHouseGateway clickHouse;
    private final AttributionQuery query;
    private final ScientificAttribution scientific;

    public AdAccountAttributionReport(ClickHouseGateway clickHouse, AttributionQuery query, ScientificAttribution scientific) {
        this.clickHouse = clickHouse;
        this.query = query;
        this.scientific = scientific;
    }

    /**
     * The report's rows. An ad account the account does not have (neither registered nor carried by an ad) is 400
     * {@code Id not found at level account: <id>}, as on ROAS and the marginal CAC curve, the other reports on one
     * entity (issue 22 item 16): a known ad account with no activity in the range is a row of zeros, never confused
     * with an unknown one.
     */
    public List<Map<String, Object>> report(String accountId, ZoneId zone, AdAccountAttributionRequest r) {
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
            throw dev.attribution.api.ApiException.badRequest(AdEntity.notFound(AdEntity.Level.account, r.adAccountId()));
        }
        AdScope scope = AdScope.of(AdScope.Column.ad_account_id, r.adAccountId()).namedAs(r.adAccountId());
        boolean sci = r.model() == AttributionRequest.Model.scientific;
        AttributionQuery.Params p = new AttributionQuery.Params(r.model() == AttributionRequest.Model.first_click, zone,
                r.span().start(), r.span().end(), r.counting().usd(), r.counting().dayOfAttribution(), r.counting().sources(),
                r.counting().windowDays(), r.filters(),
                List.of(), r.grouping(), MetricCatalog.reads(r.fields()));
        // scientific lays its credit over every row and reads only BASE from them: no sales or calls read
        Map<String, MetricCatalog.Totals> totals = query.totals(accountId, scope, p, !sci);
        List<String> fields = sci ? ScientificAttribution.BASE : r.fields();
        List<Map<String, Object>> rows;
        if (r.grouping().isPresent()) {
            rows = AttributionRows.bucketRows(r.grouping().get(), p.fromDay(), p.toDay(), totals, fields, sci);
        } else {
            MetricCatalog.Totals t = totals.getOrDefault(r.adAccountId(), new MetricCatalog.Totals());
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", r.adAccountId());
            for (String f : fields) {
                row.put(f, MetricCatalog.cell(f, t, name.orElse(r.adAccountId()), null));
            }
            rows = List.of(row);
        }
        if (sci) {
            // channels: the ad account of each click's ad, on every platform (the scope of this endpoint)
            Map<String, PathCredit.Credit> credit = scientific.credit(accountId,
                    new ScientificAttribution.Channels(null, AdScope.Column.ad_account_id, false), java.util.Set.of(r.adAccountId()), p, r.counting().scientificDays(),
                    AttributionRequest.Model.scientific);
            rows = ScientificAttribution.overlay(rows, credit, r.grouping(), r.fields(), r.grouping().isEmpty());
        }
        return rows;
    }
}
