package dev.attribution.command.clicks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /clicks} (spec 4.12). */
public record ClickBody(
        @JsonProperty(required = true) @JsonPropertyDescription("the page that was visited") String referrerUrl,
        String sessionId,
        String previousUrl,
        String userAgent,
        String ip,
        @JsonPropertyDescription("the ad platform's click id") String adSourceClickId,
        @JsonPropertyDescription("tag of the source link") String sourceLinkTag,
        Boolean isOrganic,
        @JsonPropertyDescription("ad platform of the click") Platform integrationType,
        @JsonPropertyDescription("the ad platform's ad id") String adSourceId,
        String adspendAdId,
        String email,
        @JsonPropertyDescription("phone numbers") dev.attribution.api.StringOrList phones,
        @JsonPropertyDescription("tag to apply") String tag,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date) {

    /** Ad platforms a click can come from. */
    public enum Platform { GOOGLE, GOOGLE_V2, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN, TWITTER, PINTEREST, BING }
}
