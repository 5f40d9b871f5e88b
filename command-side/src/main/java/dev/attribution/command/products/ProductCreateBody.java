package dev.attribution.command.products;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code POST /products} (spec 4.6). */
public record ProductCreateBody(
        @JsonProperty(required = true) @JsonPropertyDescription("at least 3 characters") String name,
        @JsonProperty(required = true)
        @JsonPropertyDescription("a plain number, up to 8 digits before and 2 after the point")
        java.math.BigDecimal price,
        @JsonPropertyDescription("category name") String category,
        @JsonPropertyDescription("package names") dev.attribution.api.StringOrList packages) {
}
