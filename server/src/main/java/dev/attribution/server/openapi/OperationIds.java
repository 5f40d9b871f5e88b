package dev.attribution.server.openapi;

import dev.attribution.server.mcp.ApiOperation;

import java.util.Locale;

/**
 * The operationId a client author would choose, which generators turn into method names: the endpoint's own
 * {@code @Operation(operationId)} when it names one, else a verb and the resource — {@code GET /leads} (a list) →
 * {@code listLeads}, {@code POST /leads} → {@code createLead}, {@code GET /requests/{id}} → {@code getRequest},
 * {@code GET /leads/aggregation} → {@code getLeadAggregation}, {@code DELETE /calls/{id}} → {@code deleteCall}.
 */
final class OperationIds {

    private OperationIds() {
    }

    static String of(ApiOperation op, boolean returnsList) {
        if (op.operationId() != null) {
            return op.operationId();
        }
        String verb = switch (op.method()) {
            case "GET" -> returnsList ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "DELETE" -> "delete";
            default -> op.method().toLowerCase(Locale.ROOT);
        };
        String[] segments = op.path().substring(ApiOperation.PREFIX.length()).split("/");
        StringBuilder noun = new StringBuilder();
        int last = -1;
        for (int i = 0; i < segments.length; i++) {
            if (!segments[i].isEmpty() && !segments[i].startsWith("{")) {
                last = i;
            }
        }
        for (int i = 0; i <= last; i++) {
            String s = segments[i];
            if (s.isEmpty() || s.startsWith("{")) {
                continue;
            }
            noun.append(pascal(i == last && returnsList ? s : singular(s)));
        }
        return verb + noun;
    }

    /** {@code leads} → {@code lead}, {@code custom-costs} → {@code custom-cost}; {@code aggregation}, {@code roas} stay. */
    static String singular(String word) {
        if (word.endsWith("ies")) {
            return word.substring(0, word.length() - 3) + "y";
        }
        if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("roas")) {
            return word.substring(0, word.length() - 1);
        }
        return word;
    }

    static String pascal(String segment) {
        StringBuilder out = new StringBuilder();
        for (String part : segment.split("[-_]")) {
            if (!part.isEmpty()) {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return out.toString();
    }
}
