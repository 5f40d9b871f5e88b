package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.math.BigDecimal;
import java.util.List;

/** CustomCost of spec 2.14: start and end as wall-clock local date-times (2.2.8); endDate null when open-ended. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record CustomCostView(String id, String name, BigDecimal cost, String frequency, @ApiDate(ApiDate.Encoding.LOCAL) String startDate,
                             @ApiDate(ApiDate.Encoding.LOCAL) String endDate, List<String> tags) {
}
