package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code PUT /leads} (spec 4.1): the changes to the lead the query selects. */
public record LeadUpdateBody(
        String email,
        String firstName,
        String lastName,
        @JsonPropertyDescription("tags to add") dev.attribution.api.StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate,
        @JsonPropertyDescription("tags to remove") dev.attribution.api.StringOrList removeTags,
        @JsonPropertyDescription("the lead's IP addresses") java.util.List<String> leadIps,
        @JsonPropertyDescription("phone numbers") dev.attribution.api.StringOrList phoneNumbers,
        LeadCreateBody.Consent adOptimizationConsent,
        @JsonPropertyDescription("stage to apply") Stage leadStage,
        @JsonPropertyDescription("stage names to remove") dev.attribution.api.StringOrList removeLeadStages) {

    /** A stage applied to the lead, at {@code date} (default now). */
    public record Stage(@JsonProperty(required = true) String name, String date) {
    }
}
