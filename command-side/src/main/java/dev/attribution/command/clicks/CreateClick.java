package dev.attribution.command.clicks;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.attribution.api.BlankIsAbsent;
import dev.attribution.api.StringOrList;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * {@code POST /clicks} (spec 4.11, CREATE_CLICK): bound from the body, checked by {@link ClickRules#create} (trimmed,
 * blank fields none, {@code ip} and {@code email} checked, {@code isOrganic} false when not sent, {@code date} an
 * ISO instant) and stored as such.
 */
@Schema(name = "ClickBody") // the contract's name for this body since 1.0 (generated clients' class name)
public record CreateClick(
        @JsonProperty(required = true) @JsonPropertyDescription("the page that was visited") String referrerUrl,
        String sessionId,
        String previousUrl,
        String userAgent,
        String ip,
        @JsonPropertyDescription("the ad platform's click id") String adSourceClickId,
        @JsonPropertyDescription("tag of the source link") String sourceLinkTag,
        Boolean isOrganic,
        @JsonPropertyDescription("ad platform of the click") @BlankIsAbsent Platform integrationType,
        @JsonPropertyDescription("the ad platform's ad id") String adSourceId,
        String adspendAdId,
        String email,
        @JsonPropertyDescription("phone numbers") StringOrList phones,
        @JsonPropertyDescription("tag to apply") String tag,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date) {

    /** Ad platforms a click can come from. */
    @Schema(name = "ClickBodyPlatform")
    public enum Platform { GOOGLE, GOOGLE_V2, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN, TWITTER, PINTEREST, BING }

    /** The phone numbers sent (none: empty). */
    List<String> phoneList() {
        return phones == null || phones.values() == null ? List.of() : phones.values();
    }

    String platformName() {
        return integrationType == null ? null : integrationType.name();
    }
}
