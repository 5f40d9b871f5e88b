package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code PUT /subscriptions}: the subscriptions named by ids get the fields sent (spec 4.3). */
public record SubscriptionUpdateBody(
        @JsonProperty(required = true)
        @JsonPropertyDescription("subscription ids, at most 50")
        dev.attribution.api.StringOrList ids,
        @dev.attribution.api.BlankIsAbsent SubscriptionCreateBody.Status status,
        @JsonPropertyDescription("a number, 0 to 99999999.99") java.math.BigDecimal price,
        String name,
        @JsonPropertyDescription("a date-time (spec 2.2)") String startDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String endDate,
        @JsonPropertyDescription("required with status CANCELED; a date-time (spec 2.2)") String cancelAtDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String trialStartDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String trialEndDate) {
}
