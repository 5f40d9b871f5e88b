package dev.attribution.query.reports;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/** A finished job's rows as RFC 4180 CSV: a header of the job's columns, one line per row, nulls empty. */
final class ReportCsv {

    private ReportCsv() {
    }

    static String render(List<String> columns, JsonNode rows) {
        StringBuilder out = new StringBuilder();
        line(out, columns.stream().map(c -> (Object) c).toList());
        for (JsonNode row : rows) {
            line(out, columns.stream().map(c -> {
                JsonNode v = row.get(c);
                return (Object) (v == null || v.isNull() ? "" : v.isNumber() ? v.decimalValue().toPlainString() : v.asText());
            }).toList());
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<Object> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            String s = cells.get(i).toString();
            if (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0) {
                out.append('"').append(s.replace("\"", "\"\"")).append('"');
            } else {
                out.append(s);
            }
        }
        out.append("\r\n");
    }
}
