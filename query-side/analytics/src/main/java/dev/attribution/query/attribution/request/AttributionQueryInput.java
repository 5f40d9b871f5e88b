package dev.attribution.query.attribution.request;

import dev.attribution.api.QueryParams;

import java.time.Clock;
import java.time.ZoneId;

/**
 * The typed query of {@code GET /attribution} and of report generation (spec 4.5, docs/reports.md): the request
 * (with its {@link CountingRules}) and its options, read from the query parameters in one place and in one order
 * (keyword rules, then the request, then the options), so both callers give the same 400 for the same input.
 */
public record AttributionQueryInput(AttributionRequest request, AttributionOptions options) {

    /** The parameters read and validated, or a 400 with GET /attribution's message. */
    public static AttributionQueryInput read(QueryParams q, ZoneId zone, Clock clock) {
        AttributionOptions.keywordRules(q);
        AttributionRequest r = AttributionRequest.read(q, zone, clock);
        AttributionOptions options = AttributionOptions.read(q, r);
        return new AttributionQueryInput(r, options);
    }
}
