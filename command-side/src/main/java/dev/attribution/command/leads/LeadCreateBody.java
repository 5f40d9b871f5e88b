package dev.attribution.command.leads;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /leads} (spec 4.1): creates or updates the lead with this email (or phone). */
public record LeadCreateBody(
        @JsonPropertyDescription("email (email or phoneNumbers required)") String email,
        @JsonPropertyDescription("phone numbers") dev.attribution.api.StringOrList phoneNumbers,
        String firstName,
        String lastName,
        @JsonPropertyDescription("tags to add") dev.attribution.api.StringOrList tags,
        @JsonPropertyDescription("when the tags were applied, yyyy-MM-ddTHH:mm:ss") String tagsDate,
        @JsonPropertyDescription("the lead's IP addresses") java.util.List<String> leadIps,
        @JsonPropertyDescription("lead stage name") String stage,
        Consent adOptimizationConsent) {

    /** Consent to ad optimisation (blank: UNSPECIFIED). */
    public enum Consent { GRANTED, DENIED, UNSPECIFIED }
}
