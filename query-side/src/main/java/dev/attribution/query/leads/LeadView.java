package dev.attribution.query.leads;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** LeadWithStage of spec 2.5: an item of {@code GET /leads}, and the result of a processed lead write. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LeadView(
        String id,
        String email,
        String creationDate,
        String lastUpdatedDate,
        List<String> tags,
        List<String> ips,
        List<String> phoneNumbers,
        String firstName,
        String lastName,
        String adOptimizationConsent,
        Stage currentStage,
        Attribution firstSource,
        Attribution lastSource) {

    /** A lead with no known source. */
    public LeadView(String id, String email, String creationDate, String lastUpdatedDate, List<String> tags, List<String> ips,
                    List<String> phoneNumbers, String firstName, String lastName, String adOptimizationConsent, Stage currentStage) {
        this(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName, adOptimizationConsent,
                currentStage, null, null);
    }

    /** The current stage; {@code date} omitted when unknown. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Stage(String name, String date) {
    }
}
