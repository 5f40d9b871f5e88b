package dev.attribution.command.customcosts;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import dev.attribution.api.BlankIsAbsent;
import io.swagger.v3.oas.annotations.media.Schema;

import java.math.BigDecimal;
import java.util.List;

/**
 * The body of {@code POST /custom-costs} and {@code PUT /custom-costs/{id}} (spec 4.10; PUT replaces the whole
 * cost), and once {@link CustomCostRules#check checked} the stored cost: dates as wall-clock {@code LocalDateTime}
 * text, tags with their {@code @}.
 */
@Schema(name = "CustomCostBody") // the contract's name for this body since 1.0 (generated clients' class name)
public record CustomCostFields(
        @JsonProperty(required = true)
        @JsonPropertyDescription("first day, yyyy-MM-dd (a time of day keeps its wall clock)")
        String startDate,
        @JsonPropertyDescription("last day (default: open-ended)") String endDate,
        @JsonProperty(required = true) @BlankIsAbsent Frequency frequency,
        @JsonProperty(required = true)
        @JsonPropertyDescription("a plain number above zero")
        BigDecimal cost,
        @JsonProperty(required = true)
        @JsonPropertyDescription("source tags the cost is spread over, at most 10")
        List<String> tags,
        @JsonPropertyDescription("a name for the cost") String name) {

    /** How the cost recurs. */
    public enum Frequency { DAILY, ONE_TIME }
}
