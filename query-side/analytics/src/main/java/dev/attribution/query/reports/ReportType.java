package dev.attribution.query.reports;

import java.time.Clock;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * One kind of report that {@code POST /reports/generate} can run (docs/reports.md). The seam between the job
 * machinery ({@link ReportWorker}, {@link ReportJobStore}) and a report engine: an implementation validates a
 * configuration synchronously and computes the report in parts, so that progress is real and a job retried on
 * another node resumes at its first part not saved.
 *
 * <p>Contract: {@link #plan} throws {@link dev.attribution.api.ApiException} (400) for a configuration the report
 * refuses and never touches storage; {@link #part} is a pure read, safe to repeat, and the rows of parts
 * {@code 0..parts-1} in order are the whole report.
 */
public interface ReportType {

    /** The name a configuration selects in {@code reportType}. */
    String name();

    /** The validated shape of a job: its result columns (the CSV header) and its number of parts. */
    record Plan(List<String> columns, int parts) {
    }

    /** The rows of one part, in order, and messages about it (e.g. an id not found). */
    record Part(List<Map<String, Object>> rows, List<String> notes) {
    }

    /** Validates {@code parameters} (the configuration as parameter strings) as of {@code clock}. */
    Plan plan(Map<String, String> parameters, ZoneId zone, Clock clock);

    /** Computes part {@code index} (0-based) of a job planned with the same parameters. */
    Part part(String accountId, ZoneId zone, Map<String, String> parameters, int index);
}
