package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /leads/tags} (spec 4.1): tags added to the leads named by ids or emails. */
public record LeadTagsBody(
        @JsonPropertyDescription("lead ids, at most 50") dev.attribution.api.StringOrList ids,
        @JsonPropertyDescription("lead emails, at most 50") dev.attribution.api.StringOrList emails,
        @JsonProperty(required = true)
        @JsonPropertyDescription("tags to add, at most 50")
        dev.attribution.api.StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate) {
}
