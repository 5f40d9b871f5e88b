package dev.attribution.command.products;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.attribution.api.StringOrList;
import io.swagger.v3.oas.annotations.media.Schema;

import java.math.BigDecimal;
import java.util.List;

/** The product commands (spec 4.6), bound from the bodies and checked by {@link ProductRules}. */
public final class ProductCommands {

    private ProductCommands() {
    }

    /** {@code POST /products} (CREATE_PRODUCT); a price may come as a number or a string. */
    @Schema(name = "ProductCreateBody") // the contract's name for this body since 1.0 (generated clients' class name)
    public record CreateProduct(
            @JsonProperty(required = true) @JsonPropertyDescription("at least 3 characters") String name,
            @JsonProperty(required = true)
            @JsonPropertyDescription("a plain number, up to 8 digits before and 2 after the point")
            @JsonDeserialize(using = ProductRules.Price.class) BigDecimal price,
            @JsonPropertyDescription("category name") String category,
            @JsonPropertyDescription("package names") StringOrList packages) {
    }

    /** The body of {@code PUT /products/{id}}: only the fields sent change; others are refused. */
    @Schema(name = "ProductUpdateBody")
    public record ProductChanges(
            @JsonPropertyDescription("at least 3 characters") String name,
            @JsonPropertyDescription("a plain number, up to 8 digits before and 2 after the point")
            @JsonDeserialize(using = ProductRules.Price.class) BigDecimal price,
            @JsonPropertyDescription("cost per unit, a plain number")
            @JsonDeserialize(using = ProductRules.Price.class) BigDecimal customCost,
            @JsonPropertyDescription("product tag, a sale tag ($)") String tag,
            String sku,
            @JsonPropertyDescription("category name") String category,
            Boolean isRecurringSale,
            @JsonPropertyDescription("a call product (not with isRecurringSale)") Boolean callProduct,
            @JsonPropertyDescription("package names") List<String> packages,
            @JsonPropertyDescription("apply the change to the sales already recorded") Boolean updateHistoricalSales) {
    }

    /**
     * {@code PUT /products/{id}} (UPDATE_PRODUCT): the product's id beside its checked changes, flat (Jackson 2.21
     * cannot read a number inside an unwrapped record of a record creator). Payloads of earlier versions name
     * {@code isRecurringSale} {@code recurring}.
     */
    public record UpdateProduct(String id, String name, @JsonDeserialize(using = ProductRules.Price.class) BigDecimal price,
                                @JsonDeserialize(using = ProductRules.Price.class) BigDecimal customCost, String tag, String sku,
                                String category, @JsonAlias("recurring") Boolean isRecurringSale, Boolean callProduct,
                                List<String> packages, Boolean updateHistoricalSales) {
        static UpdateProduct of(String id, ProductChanges c) {
            return new UpdateProduct(id, c.name(), c.price(), c.customCost(), c.tag(), c.sku(), c.category(),
                    c.isRecurringSale(), c.callProduct(), c.packages(), c.updateHistoricalSales());
        }
    }

    /** {@code DELETE /products/{id}} (DELETE_PRODUCT). */
    public record DeleteProduct(String id) {
    }
}
