package dev.attribution.query.attribution;

import dev.attribution.api.QueryParameter;

import java.util.Arrays;

/** The query parameters of {@code GET /api/v1.0/attribution} (spec 4.5), also the configuration of report generation. */
public enum AttributionParameter implements QueryParameter {
    attributionModel(Spec.string("required: one of " + Arrays.toString(AttributionRequest.Model.values()))),
    startDate(Spec.date("required: first day of the report")),
    endDate(Spec.date("required: last day of the report")),
    level(Spec.string("required: the ad level, one of " + AttributionRequest.Level.NAMES)),
    fields(Spec.string("required: comma-separated metrics (spec 4.5.1)")),
    ids(Spec.list(50, "required: ids at the level")),
    currency(Spec.string("usd or user_currency (default)")),
    dayOfAttribution(Spec.bool("count sales on the click's day")),
    sourceConfiguration(Spec.string("one of " + Arrays.toString(AttributionRequest.SourceConfiguration.values()) + " (default prioritize_paid)")),
    scientificDaysRange(Spec.string("scientific model look-back in days, 1-30 (default 30)")),
    windowAttributionDaysRange(Spec.integer(0, 365, "attribution window in days (default 0: no limit)")),
    timeGroupingOption(Spec.string("one of " + AttributionOptions.GROUPINGS + " (default source_link)")),
    status(Spec.string("active or paused (with timeGroupingOption source_link)")),
    isAdAccountId(Spec.bool("ids holds one ad account id")),
    keywordsIds(Spec.string("required at keyword levels")),
    newestFirst(Spec.bool("newest rows first")),
    newCustomerConfiguration(Spec.string("one of " + Arrays.toString(AttributionFilters.NewCustomers.values()))),
    ignoreRecurringSales(Spec.bool("leave recurring sales out")),
    excludeHardCosts(Spec.bool("leave hard costs out")),
    forecastingOption(Spec.string("one of " + Arrays.toString(AttributionFilters.Forecasting.values()))),
    lead_stage(Spec.string("comma-separated lead stage names")),
    pageSize(PAGE_SIZE),
    pageId(PAGE_ID);

    private final Spec spec;

    AttributionParameter(Spec spec) {
        this.spec = spec;
    }

    @Override
    public Spec spec() {
        return spec;
    }
}
