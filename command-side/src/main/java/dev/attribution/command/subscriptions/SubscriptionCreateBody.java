package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/** The body of {@code POST /subscriptions} (spec 4.3). */
public record SubscriptionCreateBody(
        @JsonProperty(required = true) Status status,
        @JsonProperty(required = true) @JsonPropertyDescription("a date-time (spec 2.2)") String startDate,
        @JsonProperty(required = true)
        @JsonPropertyDescription("a number, 0 to 99999999.99")
        java.math.BigDecimal price,
        @JsonProperty(required = true) Periodicity periodicity,
        @JsonUnwrapped dev.attribution.command.commerce.PersonFields person,
        @JsonPropertyDescription("email of the paying parent lead") String parentEmail,
        String planId,
        String name,
        String subscriptionId,
        @JsonPropertyDescription("a date-time (spec 2.2)") String endDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String cancelAtDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String trialStartDate,
        @JsonPropertyDescription("a date-time (spec 2.2)") String trialEndDate) {

    /** Subscription statuses a write may set. */
    public enum Status { ACTIVE, TRIALING, CANCELED, PAST_DUE, INCOMPLETE, INCOMPLETE_EXPIRED, UNPAID, COMPLETED, PAUSED }

    /** How often a subscription bills. */
    public enum Periodicity { DAY, WEEK, MONTH, QUARTER, YEAR }
}
