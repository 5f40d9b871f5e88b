package dev.attribution.command.sources;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /sources} (spec 4.8); an ad platform source names its ad ids. */
public record SourceCreateBody(
        @JsonProperty(required = true) @JsonPropertyDescription("the source name") String name,
        @JsonPropertyDescription("category name") String category,
        String goal,
        String trafficSource,
        Boolean isDisregard,
        Boolean isOrganic,
        @JsonPropertyDescription("ad platform of an ad source; adSourceId and accountId are then required")
        Platform integrationType,
        @JsonPropertyDescription("the ad platform's ad id") String adSourceId,
        @JsonPropertyDescription("the ad platform's ad account id") String accountId,
        @JsonPropertyDescription("required for GOOGLE") SubType adspendSubType,
        @JsonPropertyDescription("the campaign of the ad set; required for FACEBOOK") String campaignId) {

    /** Ad platforms a source can be created for. */
    public enum Platform { GOOGLE, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN }

    /** Google ad sub-types. */
    public enum SubType { DISPLAY, VIDEO }
}
