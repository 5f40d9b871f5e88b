package dev.attribution.query.reports;

import dev.attribution.api.ApiDate;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.FixedSet;
import dev.attribution.api.JsonBody;
import dev.attribution.api.RequestIds;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

import java.time.Clock;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Report generation and polling (docs/reports.md): validates and stores jobs, and shows them. */
@Singleton
@Requires(beans = ReportJobStore.class)
public class ReportJobs {

    /** A job as {@code generate} and {@code poll} show it; {@code rows} only once DONE. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record View(String externalId, String reportType, String status, int progress, int partsDone, int partsTotal,
                       @ApiDate(ApiDate.Encoding.OFFSET) String createdAt, @ApiDate(ApiDate.Encoding.OFFSET) String startedAt, @ApiDate(ApiDate.Encoding.OFFSET) String finishedAt, @ApiDate(ApiDate.Encoding.OFFSET) String expiresAt,
                       Map<String, String> configuration, List<String> columns, JsonNode rows, List<String> message) {
    }

    private final ReportJobStore store;
    private final Map<String, ReportType> types = new TreeMap<>();

    public ReportJobs(ReportJobStore store, List<ReportType> types) {
        this.store = store;
        types.forEach(t -> this.types.put(t.name(), t));
    }

    /** Validates the body (400s as the report's GET gives them) and stores a PENDING job. */
    public ReportJobStore.Job generate(String accountId, ZoneId zone, String body, Clock clock) {
        JsonBody json = JsonBody.parse(body, ReportRequestBody.class).rejectUnknown(JsonBody.fieldsOf(ReportRequestBody.class));
        JsonBody configuration = json.object("configuration")
                .orElseThrow(() -> ApiException.badRequest("Missing required field: configuration"));
        String typeName = configuration.nonBlankString(ReportParameters.REPORT_TYPE).orElse(AttributionReportType.NAME);
        FixedSet.require(ReportParameters.REPORT_TYPE, typeName, new ArrayList<>(types.keySet()));
        ReportType type = types.get(typeName);
        Map<String, String> parameters = ReportParameters.fromConfiguration(configuration.node());
        ReportParameters.checkDates(parameters, zone, clock);
        ReportType.Plan plan = type.plan(parameters, zone, clock);
        String id = RequestIds.next("rep_");
        store.insert(id, accountId, typeName, zone, parameters, plan.columns(), plan.parts());
        return store.find(accountId, id).orElseThrow();
    }

    /** The account's job, or 404 (unknown, expired, or another account's). */
    public ReportJobStore.Job find(String accountId, String externalId) {
        return store.find(accountId, externalId).orElseThrow(() -> ApiException.notFound("Report not found: " + externalId));
    }

    public static View view(ReportJobStore.Job job) {
        boolean done = job.status().equals("DONE");
        List<String> message = null;
        if (done && !job.notes().isEmpty()) {
            message = new ArrayList<>();
            for (JsonNode n : job.notes()) {
                message.add(n.asText());
            }
        } else if (job.status().equals("FAILED")) {
            message = List.of(job.error() == null ? ReportWorker.GAVE_UP : job.error());
        }
        ZoneId zone = job.zone();
        return new View(job.id(), job.reportType(), job.status(), job.progress(), job.partsDone(), job.partsTotal(),
                ApiDates.format(job.createdAt(), zone), ApiDates.format(job.startedAt(), zone),
                ApiDates.format(job.finishedAt(), zone), ApiDates.format(job.expiresAt(), zone),
                job.parameters(), job.columns(), done ? job.rows() : null, message);
    }
}
