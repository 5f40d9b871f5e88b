package dev.attribution.query.paths;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.math.BigDecimal;
import java.util.List;

/** ConversionPath of spec 2.16: one conversion and the source touches that led to it, oldest first. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ConversionPath(String id, String leadId, @ApiDate(ApiDate.Encoding.OFFSET) String creationDate, Price price, Price usdPrice, Boolean firstSale,
                             List<Touch> path) {

    /** Price of spec 2.6. */
    public record Price(String currency, BigDecimal price, BigDecimal discount, BigDecimal hardCost, BigDecimal refunded) {
    }

    /** Attribution of spec 2.6, as a touch of a path. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Touch(String sourceLinkId, String name, String tag, Boolean disregarded, Boolean organic, @ApiDate(ApiDate.Encoding.OFFSET) String clickDate,
                        String clickId, AdSource adSource, SourceLinkAd sourceLinkAd, String gclId) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AdSource(String adSourceId, String adAccountId, String platform) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SourceLinkAd(String name, String adSourceId) {
    }
}
