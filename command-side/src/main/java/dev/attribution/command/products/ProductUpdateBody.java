package dev.attribution.command.products;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code PUT /products/{id}}: only the fields sent change; others are refused (spec 4.6). */
public record ProductUpdateBody(
        @JsonPropertyDescription("at least 3 characters") String name,
        @JsonPropertyDescription("a plain number, up to 8 digits before and 2 after the point")
        java.math.BigDecimal price,
        @JsonPropertyDescription("cost per unit, a plain number") java.math.BigDecimal customCost,
        @JsonPropertyDescription("product tag, a sale tag ($)") String tag,
        String sku,
        @JsonPropertyDescription("category name") String category,
        Boolean isRecurringSale,
        @JsonPropertyDescription("a call product (not with isRecurringSale)") Boolean callProduct,
        @JsonPropertyDescription("package names") java.util.List<String> packages,
        @JsonPropertyDescription("apply the change to the sales already recorded") Boolean updateHistoricalSales) {
}
