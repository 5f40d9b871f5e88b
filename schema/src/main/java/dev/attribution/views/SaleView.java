package dev.attribution.views;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;


import java.math.BigDecimal;

/**
 * Sale of spec 2.7: an item of {@code GET /sales} and, as an array of an order's sales, the result of CREATE_ORDER,
 * UPDATE_ORDER, REFUND_ORDER and UPDATE_SALE. {@code creationDate} and {@code refundDate} use the legacy encoding.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SaleView(
        String id,
        String orderId,
        @ApiDate(ApiDate.Encoding.LEGACY) String creationDate,
        @ApiDate(ApiDate.Encoding.LEGACY) String refundDate,
        Boolean qualified,
        BigDecimal score,
        boolean recurring,
        int quantity,
        JsonNode lead,
        Attribution firstSource,
        Attribution lastSource,
        Price price,
        SaleProduct product,
        Provider provider) {

    /** Price of 2.6; {@code refunded} is the refunded amount (0 when not refunded). */
    public record Price(String currency, BigDecimal price, BigDecimal discount, BigDecimal hardCost, BigDecimal refunded) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SaleProduct(String id, String name, String tag, String sku, Category category) {
    }

    public record Category(String id, String name) {
    }

    /** Provider of 2.6: the integration the order came through ({@code integrationType}); no platform lead id is kept. */
    public record Provider(Integration integration) {
        public record Integration(String name, String type) {
        }

        public static Provider of(String integrationType) {
            return integrationType == null ? null : new Provider(new Integration(integrationType, integrationType));
        }
    }
}
