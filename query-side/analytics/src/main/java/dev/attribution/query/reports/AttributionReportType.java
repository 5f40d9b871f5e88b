package dev.attribution.query.reports;

import dev.attribution.query.attribution.request.AttributionParameters;
import dev.attribution.query.attribution.models.AttributionReport;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.query.attribution.api.AttributionRunner;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The attribution report of {@code GET /attribution} run as a job: the same parameter reading
 * ({@link AttributionParameters}) and the same engine ({@link AttributionRunner}: every model and option). One part
 * per requested id: each id's row depends only on that id, so the parts' rows in order equal the synchronous answer.
 * With a date grouping or {@code isAdAccountId} the rows span all ids: one part computes them all.
 */
@Singleton
@Requires(beans = AttributionReport.class)
class AttributionReportType implements ReportType {

    static final String NAME = "attribution";

    private final AttributionRunner runner;

    AttributionReportType(AttributionRunner runner) {
        this.runner = runner;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Plan plan(Map<String, String> parameters, ZoneId zone, Clock clock) {
        AttributionRequest r = AttributionParameters.read(ReportParameters.queryParams(parameters), zone, clock);
        List<String> columns = new ArrayList<>();
        columns.add("id");
        if (!r.grouping().equals("source_link")) {
            columns.addAll(List.of("start_date", "end_date", "name"));
        }
        r.fields().stream().filter(f -> !columns.contains(f)).forEach(columns::add);
        return new Plan(columns, AttributionRunner.perId(ReportParameters.queryParams(parameters)) ? r.ids().size() : 1);
    }

    @Override
    public Part part(String accountId, ZoneId zone, Map<String, String> parameters, int index) {
        Map<String, String> one = new HashMap<>(parameters);
        if (AttributionRunner.perId(ReportParameters.queryParams(parameters))) {
            one.put("ids", ReportParameters.quotedList(List.of(read(parameters, zone).ids().get(index))));
        }
        AttributionRunner.Answer answer = runner.run(accountId, zone, ReportParameters.queryParams(one));
        List<String> message = answer.message();
        List<Map<String, Object>> rows = new ArrayList<>(answer.rows());
        // isAdAccountId pages the ad account's sources: a generated report holds every page, in order
        while (answer.nextPageId() != null) {
            one.put("pageId", answer.nextPageId());
            answer = runner.run(accountId, zone, ReportParameters.queryParams(one));
            rows.addAll(answer.rows());
        }
        return new Part(rows, message);
    }

    /** Reads parameters validated at generate time; dates in the past then are in the past now. */
    private static AttributionRequest read(Map<String, String> parameters, ZoneId zone) {
        return AttributionParameters.read(ReportParameters.queryParams(parameters), zone, Clock.systemUTC());
    }
}
