package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.StringOrList;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * {@code POST /leads/tags} (spec 4.1, ADD_TAGS_TO_LEADS): tags added to the leads named by ids or emails. Each list is
 * a string or an array of strings, any other shape {@code <field> must be an array of strings} (spec 7.3); checked by
 * {@link LeadRules#tag} and stored as such.
 */
@Schema(name = "LeadTagsBody") // the contract's name for this body since 1.0
public record TagLeads(
        @JsonDeserialize(using = LeadRules.BulkListJson.class)
        @JsonPropertyDescription("lead ids, at most 50") StringOrList ids,
        @JsonDeserialize(using = LeadRules.BulkListJson.class)
        @JsonPropertyDescription("lead emails, at most 50") StringOrList emails,
        @JsonDeserialize(using = LeadRules.BulkListJson.class)
        @JsonProperty(required = true)
        @JsonPropertyDescription("tags to add, at most 50") StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate) {

    List<String> idList() {
        return LeadRules.values(ids);
    }

    List<String> emailList() {
        return LeadRules.values(emails);
    }

    List<String> tagList() {
        return LeadRules.values(tags);
    }
}
