package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Attribution of spec 2.6: a lead's first or last source, derived from its clicks on source links and its
 * {@code @} source tags. {@code clickId}, {@code adSource} and {@code sourceLinkAd} exist only when a click backs it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Attribution(
        String sourceLinkId,
        String name,
        String tag,
        Boolean disregarded,
        Boolean organic,
        @ApiDate(ApiDate.Encoding.OFFSET) String clickDate,
        String clickId,
        AdSource adSource,
        SourceLinkAd sourceLinkAd,
        String gclId,
        Named trafficSource,
        Named goal,
        Named category) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Named(String id, String name) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AdSource(String adSourceId, String adAccountId, String platform) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SourceLinkAd(String name, String adSourceId) {
    }
}
