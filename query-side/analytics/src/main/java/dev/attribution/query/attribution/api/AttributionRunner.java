package dev.attribution.query.attribution.api;

import dev.attribution.query.attribution.models.AttributionReport;
import dev.attribution.query.attribution.models.AttributionRows;
import dev.attribution.query.attribution.models.KeywordAttribution;
import dev.attribution.query.attribution.models.scientific.ScientificAttribution;
import dev.attribution.query.attribution.request.AttributionOptions;
import dev.attribution.query.attribution.request.AttributionQueryInput;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.query.attribution.request.LeadStageNames;
import dev.attribution.api.QueryParams;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * Reads the parameters of {@code GET /attribution} (spec 4.5) and runs the requested model's report with every
 * option: the one path of the endpoint and of report generation (docs/reports.md), so both answer the same.
 */
@Singleton
@Requires(beans = AttributionReport.class)
public class AttributionRunner {

    /** The rows, the {@code message} lines naming ids that do not exist, and the next page (isAdAccountId). */
    public record Answer(List<Map<String, Object>> rows, List<String> message, String nextPageId) {
    }

    private final AttributionReport report;
    private final LeadStageNames stages;
    private final ScientificAttribution scientific;
    private final KeywordAttribution keywords;

    AttributionRunner(AttributionReport report, LeadStageNames stages, ScientificAttribution scientific, KeywordAttribution keywords) {
        this.report = report;
        this.stages = stages;
        this.scientific = scientific;
        this.keywords = keywords;
    }

    public Answer run(String accountId, ZoneId zone, QueryParams q) {
        AttributionQueryInput input = AttributionQueryInput.read(q, zone, Clock.systemUTC());
        AttributionRequest r = input.request();
        AttributionOptions options = input.options();
        List<String> leadStages = stages.resolve(accountId, options.filters().leadStages());
        AttributionRows.Page page = r.level().keyword()
                ? keywords.report(accountId, zone, r, options, leadStages, r.counting().scientificDays())
                : r.model() == AttributionRequest.Model.scientific
                ? scientific.report(accountId, zone, r, options, leadStages, r.counting().scientificDays())
                : report.report(accountId, zone, r, options, leadStages);
        String what = options.adAccountId().isPresent() ? "Ad account not found at level " : "Id not found at level ";
        List<String> message = page.unknownIds().stream().map(id -> what + r.level().name() + ": " + id).toList();
        return new Answer(page.rows(), message, page.nextPageId());
    }

    /**
     * Whether the rows of the request can be computed one id at a time: no date grouping, no ad-account paging, not
     * a keyword level (whose rows are the keywordsIds, not the ids).
     */
    public static boolean perId(QueryParams q) {
        return q.string("timeGroupingOption").orElse("source_link").equals("source_link") && !q.bool("isAdAccountId").orElse(false)
                && !q.string("level").orElse("").endsWith("_keyword");
    }
}
