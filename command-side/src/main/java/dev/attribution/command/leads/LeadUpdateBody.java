package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.StringOrList;

import java.util.List;

/**
 * The body of {@code PUT /leads} (spec 4.1): the changes to the lead the query selects. Bound at the edge and turned
 * by {@link LeadRules#update} into the stored {@link UpdateLead}, which adds the query's selector.
 */
public record LeadUpdateBody(
        String email,
        String firstName,
        String lastName,
        @JsonPropertyDescription("tags to add") StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate,
        @JsonPropertyDescription("tags to remove") StringOrList removeTags,
        @JsonPropertyDescription("the lead's IP addresses") List<String> leadIps,
        @JsonPropertyDescription("phone numbers") StringOrList phoneNumbers,
        @JsonDeserialize(using = LeadRules.ConsentJson.class) CreateLead.Consent adOptimizationConsent,
        @JsonDeserialize(using = LeadRules.StageJson.class)
        @JsonPropertyDescription("stage to apply") Stage leadStage,
        @JsonPropertyDescription("stage names to remove") StringOrList removeLeadStages) {

    /** A stage applied to the lead, at {@code date} (default now). */
    public record Stage(@JsonProperty(required = true) String name, String date) {
    }
}
