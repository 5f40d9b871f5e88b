package dev.attribution.command.customcosts;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/**
 * The body of {@code POST /custom-costs} and {@code PUT /custom-costs/{id}} (spec 4.10; PUT replaces the whole
 * cost).
 */
public record CustomCostBody(
        @JsonProperty(required = true)
        @JsonPropertyDescription("first day, yyyy-MM-dd (a time of day keeps its wall clock)")
        String startDate,
        @JsonPropertyDescription("last day (default: open-ended)") String endDate,
        @JsonProperty(required = true) Frequency frequency,
        @JsonProperty(required = true)
        @JsonPropertyDescription("a plain number above zero")
        java.math.BigDecimal cost,
        @JsonProperty(required = true)
        @JsonPropertyDescription("source tags the cost is spread over, at most 10")
        java.util.List<String> tags,
        @JsonPropertyDescription("a name for the cost") String name) {

    /** How the cost recurs. */
    public enum Frequency { DAILY, ONE_TIME }
}
