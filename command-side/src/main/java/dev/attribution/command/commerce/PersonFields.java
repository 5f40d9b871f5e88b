package dev.attribution.command.commerce;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The person fields of a commerce write (CommerceInput#copyPerson): who bought, called or subscribed. */
public record PersonFields(
        @JsonPropertyDescription("email (email or phoneNumbers required where a person is)") String email,
        @JsonPropertyDescription("phone numbers") dev.attribution.api.StringOrList phoneNumbers,
        String firstName,
        String lastName,
        @JsonPropertyDescription("the person's IP addresses") dev.attribution.api.StringOrList leadIps,
        @JsonPropertyDescription("lead stage name to apply") String stage) {
}
