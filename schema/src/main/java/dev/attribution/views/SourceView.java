package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

/** Source of spec 2.13; {@code creationDate} in epoch milliseconds (2.3); absent parts omitted. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SourceView(String name, String tag, boolean disregarded, boolean organic, AdSource adSource,
                         Named trafficSource, Named goal, Named category, @ApiDate(ApiDate.Encoding.EPOCH_MILLIS) long creationDate) {

    /** AdSource of 2.6: absent for hand-made sources. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AdSource(String adSourceId, String adAccountId, String platform) {
    }

    /** TrafficSource, Goal, Category of 2.6. */
    public record Named(String id, String name) {
    }
}
