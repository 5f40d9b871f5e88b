package dev.attribution.views;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.math.BigDecimal;

/** Product of spec 2.12: an item of {@code GET /products} and the result of CREATE_PRODUCT. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProductView(
        String id,
        String name,
        String tag,
        String sku,
        BigDecimal price,
        BigDecimal customCost,
        boolean recurring,
        boolean callProduct,
        String category) {
}
