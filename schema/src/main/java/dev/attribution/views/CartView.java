package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * Cart of spec 2.10: {@code creationDate} in UTC; {@code orderId} only once purchased; {@code lead} absent when the
 * cart has none. Each item is rendered as a Product (the catalogue product's id and tag when the item matches one).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record CartView(
        String id,
        String orderId,
        @ApiDate(ApiDate.Encoding.UTC) String creationDate,
        int events,
        JsonNode lead,
        List<ProductView> products,
        Attribution firstSource,
        Attribution lastSource) {
}
