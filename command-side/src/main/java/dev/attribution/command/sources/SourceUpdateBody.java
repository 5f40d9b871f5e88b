package dev.attribution.command.sources;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;

/** The body of {@code PUT /sources/{tag}}: the fields sent change; others are refused (spec 4.8). */
public record SourceUpdateBody(
        String name,
        @JsonPropertyDescription("source tag (@ added when absent)") String tag,
        @JsonPropertyDescription("category name") String category,
        String goal,
        String trafficSource,
        Boolean isDisregard,
        Boolean isOrganic) {
}
