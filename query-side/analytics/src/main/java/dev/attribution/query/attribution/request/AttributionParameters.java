package dev.attribution.query.attribution.request;

import dev.attribution.api.QueryDeclaration;
import dev.attribution.api.QueryParams;

import java.time.Clock;
import java.time.ZoneId;

/**
 * The parameter reading of {@code GET /attribution} for other features (report generation, docs/reports.md): the
 * same rules and messages, because it is the same code.
 */
public final class AttributionParameters {

    /** What {@code GET /attribution} declares ({@link AttributionParameter}), read leniently. */
    public static final QueryDeclaration QUERY = QueryDeclaration.of(AttributionParameter.class, false);

    private AttributionParameters() {
    }

    /**
     * The request of {@link AttributionQueryInput#read} (keyword rules, request and options checked): validated
     * parameters, or a 400 with GET /attribution's message.
     */
    public static AttributionRequest read(QueryParams q, ZoneId zone, Clock clock) {
        return AttributionQueryInput.read(q, zone, clock).request();
    }
}
