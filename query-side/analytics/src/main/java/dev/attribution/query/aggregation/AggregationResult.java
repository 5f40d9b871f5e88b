package dev.attribution.query.aggregation;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** Aggregation result of spec 2.18; {@code groups} is present even when empty. */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record AggregationResult(List<Group> groups, long remainingCount, long totalCount) {

    /** One group: {@code key} is always a string. */
    public record Group(String key, long count) {
    }
}
