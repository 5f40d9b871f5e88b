package dev.attribution.query.leads;

import java.util.List;

/** Aggregation result of spec 2.18. */
public record AggregationResult(List<Group> groups, long remainingCount, long totalCount) {

    /** One group: {@code key} is always a string. */
    public record Group(String key, long count) {
    }
}
