package dev.attribution.command.sources;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.BlankIsAbsent;
import io.swagger.v3.oas.annotations.media.Schema;

/** The source commands (spec 4.8), bound from the bodies and checked by {@link SourceRules}; stored flat as before. */
public final class SourceCommands {

    private SourceCommands() {
    }

    /** {@code POST /sources} (CREATE_SOURCE_LINK); an ad platform source names its ad ids. */
    @Schema(name = "SourceCreateBody") // the contract's name for this body since 1.0 (generated clients' class name)
    public record CreateSource(
            @JsonProperty(required = true) @JsonPropertyDescription("the source name") String name,
            @JsonPropertyDescription("category name") String category,
            String goal,
            String trafficSource,
            Boolean isDisregard,
            Boolean isOrganic,
            @JsonPropertyDescription("ad platform of an ad source; adSourceId and accountId are then required")
            @BlankIsAbsent Platform integrationType,
            @JsonPropertyDescription("the ad platform's ad id") String adSourceId,
            @JsonPropertyDescription("the ad platform's ad account id") String accountId,
            @JsonPropertyDescription("required for GOOGLE") @BlankIsAbsent SubType adspendSubType,
            @JsonPropertyDescription("the campaign of the ad set; required for FACEBOOK") String campaignId) {
    }

    /** Ad platforms a source can be created for. */
    @Schema(name = "SourceCreateBodyPlatform")
    public enum Platform { GOOGLE, FACEBOOK, TIKTOK, SNAPCHAT, LINKEDIN }

    /** Google ad sub-types. */
    @Schema(name = "SourceCreateBodySubType")
    public enum SubType { DISPLAY, VIDEO }

    /**
     * The body of {@code PUT /sources/{tag}}: the fields sent change; others are refused. A {@code category},
     * {@code goal} or {@code trafficSource} sent as null or blank clears it ({@link SourceRules.Clearable}).
     */
    @Schema(name = "SourceUpdateBody")
    public record SourceChanges(
            String name,
            @JsonPropertyDescription("source tag (@ added when absent)") String tag,
            @JsonPropertyDescription("category name") @JsonDeserialize(using = SourceRules.Clearable.class) String category,
            @JsonDeserialize(using = SourceRules.Clearable.class) String goal,
            @JsonDeserialize(using = SourceRules.Clearable.class) String trafficSource,
            Boolean isDisregard,
            Boolean isOrganic) {
    }

    /**
     * {@code PUT /sources/{tag}} (UPDATE_SOURCE_LINK): the source's id beside its checked changes; null is no change,
     * an empty {@code category}, {@code goal} or {@code trafficSource} clears it.
     */
    public record UpdateSource(String id, String name, String tag, String category, String goal, String trafficSource,
                               Boolean isDisregard, Boolean isOrganic) {
    }

    /** {@code DELETE /sources/{tag}} (DELETE_SOURCE_LINK): soft delete. */
    public record DeleteSource(String id) {
    }
}
