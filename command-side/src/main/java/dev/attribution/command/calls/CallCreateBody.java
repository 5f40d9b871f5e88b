package dev.attribution.command.calls;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** The body of {@code POST /calls} (spec 4.3): an existing call with the same externalId is updated. */
public record CallCreateBody(
        @JsonProperty(required = true) @JsonPropertyDescription("the call's name") String name,
        @JsonUnwrapped dev.attribution.command.commerce.PersonFields person,
        @JsonPropertyDescription("your call id") String externalId,
        @JsonPropertyDescription("deprecated: externalId") String id,
        @JsonPropertyDescription("a date-time (spec 2.2)") String date,
        Boolean qualified,
        @JsonPropertyDescription("qualification stage name") String qualification,
        CallWrites.State state) {
}
