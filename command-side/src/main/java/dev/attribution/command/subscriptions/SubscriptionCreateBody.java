package dev.attribution.command.subscriptions;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * The body of {@code POST /subscriptions} (spec 4.3), bound by {@code CommandJson} and checked by
 * {@link SubscriptionRules#create} into a {@link SubscriptionCommands.CreateSubscription}.
 */
public record SubscriptionCreateBody(
        @JsonProperty(required = true) @dev.attribution.api.BlankIsAbsent Status status,
        @JsonProperty(required = true) @JsonPropertyDescription("a date-time (spec 2.2)") String startDate,
        @JsonProperty(required = true)
        @JsonPropertyDescription("a number, 0 to 99999999.99")
        java.math.BigDecimal price,
        @JsonProperty(required = true)
        @JsonPropertyDescription("how often it bills: DAY, WEEK, MONTH, QUARTER or YEAR, in any case; billing platforms' spellings "
                + "are read as these (DAILY, WEEKLY, MONTHLY, QUARTERLY, YEARLY, ANNUAL, ANNUALLY, and plurals such as months); "
                + "stored and returned as the canonical name")
        String periodicity,
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

    /**
     * How often a subscription bills (issue 22 item 15, docs/commerce.md "Subscriptions"): the canonical names and the
     * spellings billing platforms send for them, matched without regard to case.
     */
    public enum Periodicity {
        DAY("DAILY", "DAYS"), WEEK("WEEKLY", "WEEKS"), MONTH("MONTHLY", "MONTHS"), QUARTER("QUARTERLY", "QUARTERS"),
        YEAR("YEARLY", "YEARS", "ANNUAL", "ANNUALLY");

        private final java.util.List<String> synonyms;

        Periodicity(String... synonyms) {
            this.synonyms = java.util.List.of(synonyms);
        }

        /** The canonical periodicity for {@code value}, or 400 listing every accepted spelling. */
        public static Periodicity read(String value) {
            String v = value.trim().toUpperCase(java.util.Locale.ROOT);
            for (Periodicity p : values()) {
                if (p.name().equals(v) || p.synonyms.contains(v)) {
                    return p;
                }
            }
            java.util.List<String> names = java.util.Arrays.stream(values()).map(Enum::name).toList();
            java.util.List<String> others = java.util.Arrays.stream(values()).flatMap(p -> p.synonyms.stream()).toList();
            throw dev.attribution.api.ApiException.badRequest("Invalid periodicity '" + value + "'. Accepted values: "
                    + String.join(", ", names) + ", or " + String.join(", ", others) + " (any case)");
        }
    }
}
