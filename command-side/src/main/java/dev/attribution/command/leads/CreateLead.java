package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.StringOrList;
import io.swagger.v3.oas.annotations.media.Schema;

import java.util.List;

/**
 * {@code POST /leads} (spec 4.1, CREATE_LEAD): creates the lead with this email (or phone) or updates it. Bound from
 * the body, checked by {@link LeadRules#create} (trimmed, blanks dropped, {@code tagsDate} an ISO instant, a blank
 * consent UNSPECIFIED) and stored as such, in the shape earlier versions stored.
 */
@Schema(name = "LeadCreateBody") // the contract's name for this body since 1.0 (generated clients' class name)
public record CreateLead(
        @JsonPropertyDescription("email (email or phoneNumbers required)") String email,
        @JsonPropertyDescription("phone numbers") StringOrList phoneNumbers,
        String firstName,
        String lastName,
        @JsonPropertyDescription("tags to add") StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate,
        @JsonPropertyDescription("the lead's IP addresses") List<String> leadIps,
        @JsonPropertyDescription("lead stage name") String stage,
        @JsonDeserialize(using = LeadRules.ConsentJson.class) Consent adOptimizationConsent) {

    /** Consent to ad optimisation (blank: UNSPECIFIED). */
    public enum Consent { GRANTED, DENIED, UNSPECIFIED }

    List<String> phones() {
        return LeadRules.values(phoneNumbers);
    }

    List<String> tagList() {
        return LeadRules.values(tags);
    }

    List<String> ips() {
        return leadIps == null ? List.of() : leadIps;
    }

    /** The consent sent, by name; null when none was. */
    String consent() {
        return adOptimizationConsent == null ? null : adOptimizationConsent.name();
    }
}
