package dev.attribution.query.attribution.request;

import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;

import java.util.Set;

/**
 * The rules of spec 4.5 that say how conversions are counted and credited, the same on {@code /attribution} (and
 * report generation) and {@code /attribution/ad-account}: read and checked here once, in this order (currency,
 * dayOfAttribution, sourceConfiguration, scientificDaysRange, windowAttributionDaysRange), so both endpoints answer
 * the same 400 for the same value.
 *
 * @param scientificDays the scientific model's look-back, 1-30 (default 30), read for every model
 * @param windowDays     0 = no limit
 */
public record CountingRules(boolean usd, boolean dayOfAttribution, AttributionRequest.SourceConfiguration sources,
                            int scientificDays, int windowDays) {

    static CountingRules read(QueryParams q) {
        String currency = q.string("currency").orElse("user_currency");
        if (!Set.of("usd", "user_currency").contains(currency)) {
            throw ApiException.badRequest("Invalid currency: " + currency + ". Accepted values: usd, user_currency");
        }
        boolean day = q.bool("dayOfAttribution").orElse(false);
        AttributionRequest.SourceConfiguration sources = q.string("sourceConfiguration")
                .map(v -> AttributionFilters.oneOf(v, AttributionRequest.SourceConfiguration.class, "sourceConfiguration"))
                .orElse(AttributionRequest.SourceConfiguration.prioritize_paid);
        int scientificDays = ScientificAttribution.daysRange(q);
        int window = q.intInRange("windowAttributionDaysRange", 0);
        return new CountingRules(currency.equals("usd"), day, sources, scientificDays, window);
    }
}
