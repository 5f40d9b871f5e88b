package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;


import java.math.BigDecimal;

/**
 * Subscription of spec 2.9: the five dates in the legacy encoding, {@code lastUpdatedDate} ISO 8601, and
 * {@code category} null until the first paid sale.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SubscriptionView(
        String id,
        String planId,
        String tag,
        String name,
        String periodicity,
        @ApiDate(ApiDate.Encoding.LEGACY) String startDate,
        @ApiDate(ApiDate.Encoding.LEGACY) String endDate,
        @ApiDate(ApiDate.Encoding.LEGACY) String cancelAtDate,
        @ApiDate(ApiDate.Encoding.LEGACY) String trialStartDate,
        @ApiDate(ApiDate.Encoding.LEGACY) String trialEndDate,
        @ApiDate(ApiDate.Encoding.OFFSET) String lastUpdatedDate,
        BigDecimal price,
        String status,
        JsonNode lead,
        Attribution firstSource,
        Attribution lastSource,
        @JsonInclude(JsonInclude.Include.ALWAYS) Category category) {

    public record Category(String id, String name) {
    }
}
