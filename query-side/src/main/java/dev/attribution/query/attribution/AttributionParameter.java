package dev.attribution.query.attribution;

import dev.attribution.api.QueryParameter;

/** The query parameters of {@code GET /api/v1.0/attribution} (spec 4.5), also the configuration of report generation. */
public interface AttributionParameter extends AttributionRequest.Parameters, AttributionFilters.Parameters, QueryParameter.Paged {
    Spec level = Spec.string("required: the ad level, one of " + AttributionRequest.Level.NAMES);
    Spec ids = Spec.list(50, "required: ids at the level");
    Spec timeGroupingOption = Spec.string("one of " + AttributionOptions.GROUPINGS + " (default source_link)");
    Spec status = Spec.string("active or paused (with timeGroupingOption source_link)");
    Spec isAdAccountId = Spec.bool("ids holds one ad account id");
    Spec keywordsIds = Spec.string("required at keyword levels");
    Spec newestFirst = Spec.bool("newest rows first");
}
