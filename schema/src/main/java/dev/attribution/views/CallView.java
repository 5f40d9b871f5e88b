package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;


import java.math.BigDecimal;

/** Call of spec 2.8: {@code creationDate} in the legacy encoding; {@code state} omitted when never set. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CallView(
        String id,
        String tag,
        String name,
        String externalId,
        boolean qualified,
        BigDecimal score,
        @ApiDate(ApiDate.Encoding.LEGACY) String creationDate,
        String state,
        Qualification qualification,
        JsonNode lead,
        Attribution firstSource,
        Attribution lastSource) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Qualification(String name, String oldName) {
    }
}
