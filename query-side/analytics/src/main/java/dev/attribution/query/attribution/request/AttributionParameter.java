package dev.attribution.query.attribution.request;

import dev.attribution.api.QueryParameter;

/** The query parameters of {@code GET /api/v1.0/attribution} (spec 4.5), also the configuration of report generation. */
public interface AttributionParameter extends AttributionRequest.Parameters, AttributionFilters.Parameters, QueryParameter.Paged {
    Spec level = Spec.string("the ad level").required().oneOf(AttributionRequest.Level.NAMES);
    Spec ids = Spec.list(50, "ids at the level").required();
    Spec timeGroupingOption = Spec.string("rows per source link (default) or per period").oneOf(AttributionOptions.GROUPINGS);
    Spec status = Spec.string("with timeGroupingOption source_link: active or paused links only").oneOf("active", "paused");
    Spec isAdAccountId = Spec.bool("ids holds one ad account id");
    Spec keywordsIds = Spec.string("required at keyword levels");
    Spec newestFirst = Spec.bool("newest rows first");
}
