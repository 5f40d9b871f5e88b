package dev.attribution.query.reports;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;

import java.util.Map;

/** The body of {@code POST /reports/generate} (docs/reports.md). */
public record ReportRequestBody(
        @JsonProperty(required = true)
        @JsonPropertyDescription("the report: reportType (default attribution) and the parameters of its GET report"
                + " (get_attribution's arguments: startDate, endDate, attributionModel, level, fields, ids, ...);"
                + " arrays are lists, numbers and booleans as written")
        Map<String, Object> configuration) {
}
