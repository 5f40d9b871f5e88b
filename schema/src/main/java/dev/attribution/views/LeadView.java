package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** LeadWithStage of spec 2.5: an item of {@code GET /leads}, and the result of a processed lead write. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LeadView(
        String id,
        String email,
        @ApiDate(ApiDate.Encoding.OFFSET) String creationDate,
        @ApiDate(ApiDate.Encoding.OFFSET) String lastUpdatedDate,
        List<String> tags,
        List<String> ips,
        List<String> phoneNumbers,
        String firstName,
        String lastName,
        String adOptimizationConsent,
        Stage currentStage,
        Attribution firstSource,
        Attribution lastSource,
        LeadView originLead,
        Boolean isOriginLead) {

    /** A lead with its sources, no origin. */
    public LeadView(String id, String email, String creationDate, String lastUpdatedDate, List<String> tags, List<String> ips,
                    List<String> phoneNumbers, String firstName, String lastName, String adOptimizationConsent, Stage currentStage,
                    Attribution firstSource, Attribution lastSource) {
        this(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName, adOptimizationConsent,
                currentStage, firstSource, lastSource, null, null);
    }

    /** This lead with {@code origin} (spec 2.5: the origin lead it was merged into) nested, marked as an origin. */
    public LeadView withOrigin(LeadView origin) {
        return new LeadView(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName,
                adOptimizationConsent, currentStage, firstSource, lastSource, origin.withIsOriginLead(true), isOriginLead);
    }

    /** This lead with its first and last sources (spec 2.6). */
    public LeadView withSources(Attribution first, Attribution last) {
        return new LeadView(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName,
                adOptimizationConsent, currentStage, first, last, originLead, isOriginLead);
    }

    /** This lead with {@code isOriginLead} set (spec 2.5: on the journey endpoint and on a nested originLead). */
    public LeadView withIsOriginLead(boolean origin) {
        return new LeadView(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName,
                adOptimizationConsent, currentStage, firstSource, lastSource, originLead, origin);
    }

    /** A lead with no known source. */
    public LeadView(String id, String email, String creationDate, String lastUpdatedDate, List<String> tags, List<String> ips,
                    List<String> phoneNumbers, String firstName, String lastName, String adOptimizationConsent, Stage currentStage) {
        this(id, email, creationDate, lastUpdatedDate, tags, ips, phoneNumbers, firstName, lastName, adOptimizationConsent,
                currentStage, null, null);
    }

    /** The current stage; {@code date} omitted when unknown. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Stage(String name, @ApiDate(ApiDate.Encoding.OFFSET) String date) {
    }
}
