package dev.attribution.query.attribution.request;

import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.metrics.MetricCatalog;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParams;

import java.time.Clock;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.List;

/** The validated parameters of {@code GET /api/v1.0/attribution} (spec 4.5). */
public record AttributionRequest(Model model, ApiDates.Span span, Level level, List<String> fields, List<String> ids,
                                 CountingRules counting, String grouping, int pageSize) {

    public enum Model { last_click, first_click, scientific }

    /** The query parameters every attribution report reads (GET /attribution, GET /attribution/ad-account). */
    public interface Parameters extends QueryParameter {
        Spec attributionModel = Spec.string("the attribution model").required().oneOf((Object[]) Model.values());
        Spec startDate = Spec.date("first day of the report").required();
        Spec endDate = Spec.date("last day of the report").required();
        Spec fields = Spec.string("comma-separated metrics (spec 4.5.1)").required();
        Spec currency = Spec.string("the currency of amounts (default user_currency)").oneOf("usd", "user_currency");
        Spec dayOfAttribution = Spec.bool("count sales on the click's day");
        Spec sourceConfiguration = Spec.string("one of " + Arrays.toString(SourceConfiguration.values())
                + " (default prioritize_paid)");
        Spec windowAttributionDaysRange = Spec.integer(0, 365, "attribution window in days (default 0: no limit)");
        /** Read by {@link ScientificAttribution#daysRange}, which gives the spec's message for a bad value. */
        Spec scientificDaysRange = Spec.string("scientific model look-back in days, 1-30 (default 30)");
    }

    public enum SourceConfiguration { all_sources, only_organic, only_paid, prioritize_organic, prioritize_paid }

    /** The metric names of 4.5.1 (MetricCatalog says which are computed; the others answer null). */
    public static final List<String> SUPPORTED_FIELDS = MetricCatalog.NAMES;

    /** A level of the level table: an ad platform and the depth (campaign, ad set / ad group, ad). */
    public record Level(String name, String platform, AdScope.Column column) {

        /** google_keyword, google_v2_keyword: rows are keywords of ad groups (docs/attribution-models.md). */
        public boolean keyword() {
            return name.endsWith("_keyword");
        }

        static final List<String> NAMES = List.of("google_campaign", "google_adgroup", "google_ad", "google_keyword",
                "google_v2_campaign", "google_v2_adgroup", "google_v2_ad", "google_v2_keyword",
                "facebook_campaign", "facebook_adset", "facebook_ad", "tiktok_adgroup", "tiktok_ad",
                "snapchat_adsquad", "snapchat_ad", "pinterest_adgroup", "pinterest_ad", "twitter_adgroup", "twitter_ad",
                "bing_adgroup", "bing_ad", "linkedin_campaign", "linkedin_ad");

        static Level of(String name) {
            if (!NAMES.contains(name)) {
                throw ApiException.badRequest("Invalid level: " + name + ". Accepted values: " + String.join(", ", NAMES));
            }
            int cut = name.lastIndexOf('_');
            String platform = name.substring(0, cut).toUpperCase(java.util.Locale.ROOT);
            String depth = name.substring(cut + 1);
            AdScope.Column column = switch (depth) {
                case "campaign" -> AdScope.Column.campaign_id;
                case "ad" -> AdScope.Column.ad_id;
                default -> AdScope.Column.ad_set_id;
            };
            return new Level(name, platform, column);
        }
    }

    static AttributionRequest read(QueryParams q, ZoneId zone, Clock clock) {
        Model model = AttributionFilters.oneOf(q.required("attributionModel"), Model.class, "attributionModel");
        String start = q.required("startDate");
        String end = q.required("endDate");
        ApiDates.Span span = ApiDates.attributionSpan(start, end, zone, clock);
        Level level = Level.of(q.required("level"));
        List<String> fields = MetricCatalog.parseFields(q.required("fields"));
        // at keyword levels the rows are the keywordsIds, as <adGroupId>:<keywordId>; ids is not read there
        List<String> ids = level.keyword() ? KeywordIds.parse(q.required("keywordsIds")).stream().map(KeywordIds.Keyword::key).toList()
                : q.list("ids");
        if (ids.isEmpty()) {
            throw ApiException.badRequest("Missing required parameter: ids");
        }
        CountingRules counting = CountingRules.read(q);
        String grouping = q.string("timeGroupingOption").orElse("source_link");
        if (!AttributionOptions.GROUPINGS.contains(grouping)) {
            throw ApiException.badRequest("Invalid timeGroupingOption: " + grouping + ". Accepted values: " + String.join(", ", AttributionOptions.GROUPINGS));
        }
        int pageSize = q.intInRange("pageSize", 50);
        return new AttributionRequest(model, span, level, fields, ids, counting, grouping, pageSize);
    }

    /** The same request with another model and metric list (the scientific model reads its base metrics so). */
    public AttributionRequest withModelAndFields(Model otherModel, List<String> otherFields) {
        return new AttributionRequest(otherModel, span, level, otherFields, ids, counting, grouping, pageSize);
    }

    public boolean usd() {
        return counting.usd();
    }

    public boolean dayOfAttribution() {
        return counting.dayOfAttribution();
    }

    public SourceConfiguration sources() {
        return counting.sources();
    }

    public int windowDays() {
        return counting.windowDays();
    }
}
