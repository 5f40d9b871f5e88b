package dev.attribution.query.reports;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import dev.attribution.api.Envelopes;
import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestBodyType;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.swagger.v3.oas.annotations.Operation;

import java.time.Clock;
import java.util.List;

/**
 * {@code POST /api/v1.0/reports/generate} and {@code GET /api/v1.0/reports/poll/{externalId}} (spec 4.13;
 * docs/reports.md). Both need the role of {@code GET /attribution}, whose report they run. Both are query routes,
 * the POST included: it changes no record, its job row is the bookkeeping of a read, and the job runs on a node
 * serving the query side ({@link ReportWorker}) against ClickHouse (README, "Node roles").
 */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/reports")
@Requires(beans = ReportJobs.class)
class ReportController {

    static final MediaType CSV = MediaType.of("text/csv");

    private final ReportJobs jobs;

    ReportController(ReportJobs jobs) {
        this.jobs = jobs;
    }

    @Post(uri = "/generate", consumes = MediaType.ALL)
    @RequestBodyType(value = ReportRequestBody.class, enforcing = true, example = """
            {"configuration": {"reportType": "attribution", "attributionModel": "last_click", "level": "facebook_ad", "ids": ["23851234567890201"], "fields": ["sales", "revenue", "cost"], "startDate": "2026-01-01", "endDate": "2026-01-31"}}""")
    @Operation(operationId = "generateReport",
            summary = "Run an attribution report asynchronously; poll it with its externalId.")
    @RequiresRole(Roles.GET_ATTRIBUTION)
    @QueryParameters(enforcing = true)
    Envelopes.Single<ReportJobs.View> generate(@Nullable @Body String body, QueryParams none, Caller caller) {
        // an enforcing endpoint of spec 4.0 without query parameters: binding `none` refuses any as Unknown parameter
        ReportJobStore.Job job = jobs.generate(caller.accountId(), caller.account().timeZone(), body, Clock.systemUTC());
        return new Envelopes.Single<>(ReportJobs.view(job), RequestIds.current());
    }

    /** JSON by default; a DONE job's rows as CSV with {@code format=csv} or {@code Accept: text/csv}. */
    @Get("/poll/{externalId}")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @Operation(operationId = "pollReport",
            summary = "A generated report: its progress, then its result (JSON, or CSV on request).")
    @RequiresRole(Roles.GET_ATTRIBUTION)
    @QueryParameters(value = PollQuery.class, enforcing = true)
    HttpResponse<?> poll(@PathVariable String externalId, HttpRequest<?> request, QueryParams q, Caller caller) {
        String format = q.string("format").map(f -> FixedSet.require("format", f, List.of("json", "csv"))).orElse(null);
        ReportJobStore.Job job = jobs.find(caller.accountId(), externalId);
        boolean csv = format == null ? request.getHeaders().accept().stream().anyMatch(m -> m.getName().equalsIgnoreCase(CSV.getName())) : format.equals("csv");
        if (csv && job.status().equals("DONE")) {
            return HttpResponse.ok(ReportCsv.render(job.columns(), job.rows())).contentType(MediaType.of("text/csv; charset=utf-8"))
                    .header("Content-Disposition", "attachment; filename=\"" + job.id() + ".csv\"");
        }
        return HttpResponse.ok(new Envelopes.Single<>(ReportJobs.view(job), RequestIds.current())).contentType(MediaType.APPLICATION_JSON_TYPE);
    }

    interface PollQuery extends QueryParameter {
        Spec format = Spec.string("the file format (default: json, or csv with Accept: text/csv)").oneOf("json", "csv");
    }
}
