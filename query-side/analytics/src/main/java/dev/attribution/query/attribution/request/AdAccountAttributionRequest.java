package dev.attribution.query.attribution.request;

import dev.attribution.query.attribution.metrics.MetricCatalog;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;

import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;

/** The validated parameters of {@code GET /api/v1.0/attribution/ad-account} (spec 4.5). */
public record AdAccountAttributionRequest(AttributionRequest.Model model, ApiDates.Span span, List<String> fields,
                                          String adAccountId, CountingRules counting,
                                          Optional<TimeBuckets.Unit> grouping, AttributionFilters filters) {

    public static final List<String> GROUPINGS = List.of("ad_account", "day", "week", "month", "year");

    public static AdAccountAttributionRequest read(QueryParams q, ZoneId zone, Clock clock) {
        AttributionRequest.Model model = AttributionFilters.oneOf(q.required("attributionModel"), AttributionRequest.Model.class, "attributionModel");
        ApiDates.Span span = ApiDates.attributionSpan(q.required("startDate"), q.required("endDate"), zone, clock);
        List<String> fields = MetricCatalog.parseFields(q.required("fields"));
        List<String> ids = q.list("ids");
        if (ids.isEmpty()) {
            throw ApiException.badRequest("Missing required parameter: ids");
        }
        if (ids.stream().distinct().count() != 1) {
            throw ApiException.badRequest("ids must hold exactly one ad account id");
        }
        CountingRules counting = CountingRules.read(q);
        String g = q.string("adLevelDateGroupingOption").orElse("ad_account");
        if (!GROUPINGS.contains(g)) {
            throw ApiException.badRequest("Invalid adLevelDateGroupingOption: " + g + ". Accepted values: " + String.join(", ", GROUPINGS));
        }
        Optional<TimeBuckets.Unit> grouping = g.equals("ad_account") ? Optional.empty() : Optional.of(TimeBuckets.unit(g));
        return new AdAccountAttributionRequest(model, span, fields, ids.get(0), counting, grouping,
                AttributionFilters.read(q, true));
    }
}
