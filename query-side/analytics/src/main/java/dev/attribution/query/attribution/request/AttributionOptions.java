package dev.attribution.query.attribution.request;

import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;

import java.util.List;
import java.util.Optional;

/**
 * The grouping and paging options of {@code GET /attribution} (spec 4.5) and their rules; the conversion filters
 * are in {@link AttributionFilters}.
 *
 * @param grouping    empty = {@code source_link} (one row per source), else date buckets over all sources
 * @param status      {@code active} / {@code paused}: keeps sources with / without ad spend in the range
 * @param adAccountId with {@code isAdAccountId=true}: the one ad account whose sources are paged
 */
public record AttributionOptions(Optional<TimeBuckets.Unit> grouping, Optional<String> status,
                                 Optional<String> adAccountId, boolean newestFirst, Optional<String> pageId,
                                 AttributionFilters filters) {

    public static final AttributionOptions DEFAULT = new AttributionOptions(Optional.empty(), Optional.empty(),
            Optional.empty(), false, Optional.empty(), AttributionFilters.NONE);

    static final List<String> GROUPINGS = List.of("source_link", "day", "week", "month", "year");

    /** Rules checked before the level is parsed: keyword levels (keywordsIds required; no ad-account paging, no status). */
    static void keywordRules(QueryParams q) {
        String level = q.string("level").orElse("");
        if (!level.endsWith("_keyword") || !AttributionRequest.Level.NAMES.contains(level)) {
            return;
        }
        if (q.bool("isAdAccountId").orElse(false)) {
            throw ApiException.badRequest("isAdAccountId is not supported at level " + level);
        }
        if (q.string("keywordsIds").isEmpty()) {
            throw ApiException.badRequest("Missing required parameter: keywordsIds");
        }
        if (q.string("status").isPresent()) {
            // status is read from ad spend, which the store does not have per keyword
            throw ApiException.badRequest("status is not supported at level " + level);
        }
    }

    /** The options of a request {@link AttributionRequest#read} has validated (its timeGroupingOption among them). */
    static AttributionOptions read(QueryParams q, AttributionRequest r) {
        String g = r.grouping();
        Optional<TimeBuckets.Unit> grouping = g.equals("source_link") ? Optional.empty() : Optional.of(TimeBuckets.unit(g));
        Optional<String> status = q.string("status");
        if (status.isPresent()) {
            if (!List.of("active", "paused").contains(status.get())) {
                throw ApiException.badRequest("Invalid status: " + status.get() + ". Accepted values: active, paused");
            }
            if (grouping.isPresent()) {
                throw ApiException.badRequest("status is only supported with timeGroupingOption source_link");
            }
        }
        boolean adAccount = q.bool("isAdAccountId").orElse(false);
        Optional<String> adAccountId = Optional.empty();
        if (adAccount) {
            if (grouping.isPresent()) {
                throw ApiException.badRequest("isAdAccountId is not supported with timeGroupingOption " + g);
            }
            if (r.ids().size() != 1) {
                throw ApiException.badRequest("With isAdAccountId=true, ids must hold exactly one ad account id");
            }
            adAccountId = Optional.of(r.ids().get(0));
        }
        boolean newestFirst = q.bool("newestFirst").orElse(false);
        return new AttributionOptions(grouping, status, adAccountId, newestFirst, q.string("pageId"),
                AttributionFilters.read(q, false));
    }
}
