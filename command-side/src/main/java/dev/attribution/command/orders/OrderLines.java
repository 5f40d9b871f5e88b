package dev.attribution.command.orders;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The money fields of an order write (OrderInput#copyOrder). */
public record OrderLines(
        @JsonPropertyDescription("how amounts are written: DECIMAL (default) or INTEGER minor units")
        Money.Format priceFormat,
        @JsonPropertyDescription("ISO 4217 code (default: the account's currency)") String currency,
        java.math.BigDecimal shippingCost,
        java.math.BigDecimal taxes,
        java.math.BigDecimal orderDiscount,
        @JsonPropertyDescription("kept as stored when omitted on update") java.math.BigDecimal hardCost,
        @JsonProperty(required = true)
        @JsonPropertyDescription("the order's items, at least one")
        java.util.List<Item> items) {

    /** One item of an order: a sale. */
    public record Item(
            @JsonProperty(required = true) String name,
            @JsonProperty(required = true) java.math.BigDecimal price,
            java.math.BigDecimal costOfGoods,
            java.math.BigDecimal taxes,
            java.math.BigDecimal itemDiscount,
            @JsonPropertyDescription("default 1") Integer quantity,
            String externalId,
            String sku,
            @JsonPropertyDescription("product tag, a sale tag ($)") String tag,
            String categoryName,
            Boolean isRebill,
            @JsonPropertyDescription("package names") dev.attribution.api.StringOrList packages) {
    }
}
