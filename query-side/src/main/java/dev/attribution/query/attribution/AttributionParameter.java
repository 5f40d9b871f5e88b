package dev.attribution.query.attribution;

import dev.attribution.api.QueryParameter;

import java.util.Arrays;

/** The query parameters of {@code GET /api/v1.0/attribution} (spec 4.5), also the configuration of report generation. */
public interface AttributionParameter extends QueryParameter {
    Spec attributionModel = Spec.string("required: one of " + Arrays.toString(AttributionRequest.Model.values()));
    Spec startDate = Spec.date("required: first day of the report");
    Spec endDate = Spec.date("required: last day of the report");
    Spec level = Spec.string("required: the ad level, one of " + AttributionRequest.Level.NAMES);
    Spec fields = Spec.string("required: comma-separated metrics (spec 4.5.1)");
    Spec ids = Spec.list(50, "required: ids at the level");
    Spec currency = Spec.string("usd or user_currency (default)");
    Spec dayOfAttribution = Spec.bool("count sales on the click's day");
    Spec sourceConfiguration = Spec.string("one of " + Arrays.toString(AttributionRequest.SourceConfiguration.values())
            + " (default prioritize_paid)");
    Spec scientificDaysRange = Spec.string("scientific model look-back in days, 1-30 (default 30)");
    Spec windowAttributionDaysRange = Spec.integer(0, 365, "attribution window in days (default 0: no limit)");
    Spec timeGroupingOption = Spec.string("one of " + AttributionOptions.GROUPINGS + " (default source_link)");
    Spec status = Spec.string("active or paused (with timeGroupingOption source_link)");
    Spec isAdAccountId = Spec.bool("ids holds one ad account id");
    Spec keywordsIds = Spec.string("required at keyword levels");
    Spec newestFirst = Spec.bool("newest rows first");
    Spec newCustomerConfiguration = Spec.string("one of " + Arrays.toString(AttributionFilters.NewCustomers.values()));
    Spec ignoreRecurringSales = Spec.bool("leave recurring sales out");
    Spec excludeHardCosts = Spec.bool("leave hard costs out");
    Spec forecastingOption = Spec.string("one of " + Arrays.toString(AttributionFilters.Forecasting.values()));
    Spec lead_stage = Spec.string("comma-separated lead stage names");
    Spec pageSize = PAGE_SIZE;
    Spec pageId = PAGE_ID;
}
