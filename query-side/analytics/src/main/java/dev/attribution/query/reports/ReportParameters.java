package dev.attribution.query.reports;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.ApiException;
import dev.attribution.api.DateRange;
import dev.attribution.api.QueryParams;
import dev.attribution.query.attribution.request.AttributionParameters;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.simple.SimpleHttpParameters;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code configuration} of {@code POST /reports/generate} as the parameter strings of the matching GET report
 * (docs/reports.md): a string as is, a number or boolean as written, an array as the quoted list of spec 4.0
 * ({@code "a","b"}); null is absent. The report-generation date rules of spec 7.2.3 and 7.2.5 live here.
 */
final class ReportParameters {

    /** The configuration field that selects the {@link ReportType}; not passed to the report. */
    static final String REPORT_TYPE = "reportType";
    static final String INVERTED = "'endDate' cannot be before 'startDate'";

    private ReportParameters() {
    }

    static Map<String, String> fromConfiguration(JsonNode configuration) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = configuration.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (e.getKey().equals(REPORT_TYPE) || v.isNull()) {
                continue;
            }
            if (v.isTextual()) {
                out.put(e.getKey(), v.asText());
            } else if (v.isNumber()) {
                out.put(e.getKey(), v.decimalValue().toPlainString());
            } else if (v.isBoolean()) {
                out.put(e.getKey(), Boolean.toString(v.booleanValue()));
            } else if (v.isArray()) {
                List<String> items = new ArrayList<>();
                for (JsonNode item : v) {
                    if (!item.isValueNode() || item.isNull()) {
                        throw ApiException.badRequest(e.getKey() + " must be an array of strings");
                    }
                    items.add(item.asText());
                }
                out.put(e.getKey(), quotedList(items));
            } else {
                throw ApiException.badRequest(e.getKey() + " must be a string, a number, a boolean or an array of strings");
            }
        }
        return out;
    }

    /** The quoted list of spec 4.0, read back by {@link QueryParams#list}. */
    static String quotedList(List<String> values) {
        List<String> quoted = new ArrayList<>(values.size());
        for (String v : values) {
            quoted.add('"' + v + '"');
        }
        return String.join(",", quoted);
    }

    static QueryParams queryParams(Map<String, String> parameters) {
        Map<CharSequence, List<String>> values = new HashMap<>();
        parameters.forEach((k, v) -> values.put(k, List.of(v)));
        return QueryParams.of(new SimpleHttpParameters(values, ConversionService.SHARED), AttributionParameters.QUERY);
    }

    /**
     * Spec 7.2.5 and 7.2.3 on the configuration's {@code startDate}/{@code endDate}: an end before the start
     * (compared as instants, a bare date spanning its whole day), then a bound in a future calendar month. An absent
     * bound is left to the report, which names it as its GET does; a malformed one gets the same
     * {@code Invalid date format.}.
     */
    static void checkDates(Map<String, String> parameters, ZoneId zone, Clock clock) {
        String start = parameters.get("startDate");
        String end = parameters.get("endDate");
        if (start == null || end == null || start.isBlank() || end.isBlank()) {
            return;
        }
        Instant from = ApiDates.parse(start.trim()).toLowerBound(zone);
        Instant to = ApiDates.parse(end.trim()).toUpperBound(zone);
        if (to.isBefore(from)) {
            throw ApiException.badRequest(INVERTED);
        }
        DateRange.read(queryParams(parameters), "startDate", "endDate", zone, true, clock);
    }
}
