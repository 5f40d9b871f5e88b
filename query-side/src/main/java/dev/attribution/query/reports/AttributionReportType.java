package dev.attribution.query.reports;

import dev.attribution.api.QueryParams;
import dev.attribution.query.attribution.AttributionParameters;
import dev.attribution.query.attribution.AttributionReport;
import dev.attribution.query.attribution.AttributionRequest;
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
 * ({@link AttributionParameters}) and the same engine ({@link AttributionReport}). One part per requested id: each
 * id's row depends only on that id, so the parts' rows in order equal the synchronous answer.
 */
@Singleton
@Requires(beans = AttributionReport.class)
class AttributionReportType implements ReportType {

    static final String NAME = "attribution";

    private final AttributionReport report;

    AttributionReportType(AttributionReport report) {
        this.report = report;
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
        columns.addAll(r.fields());
        return new Plan(columns, r.ids().size());
    }

    @Override
    public Part part(String accountId, ZoneId zone, Map<String, String> parameters, int index) {
        AttributionRequest all = read(parameters, zone);
        String id = all.ids().get(index);
        Map<String, String> one = new HashMap<>(parameters);
        one.put("ids", ReportParameters.quotedList(List.of(id)));
        AttributionRequest r = read(one, zone);
        AttributionReport.Result result = report.report(accountId, zone, r);
        // the text of GET /attribution's message for an id that does not exist at the level
        List<String> notes = result.unknownIds().stream().map(u -> "Id not found at level " + r.level().name() + ": " + u).toList();
        return new Part(result.rows(), notes);
    }

    /** Reads parameters validated at generate time; dates in the past then are in the past now. */
    private static AttributionRequest read(Map<String, String> parameters, ZoneId zone) {
        return AttributionParameters.read(ReportParameters.queryParams(parameters), zone, Clock.systemUTC());
    }
}
