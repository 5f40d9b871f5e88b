package dev.attribution.query.paths;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.DateRange;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParams;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Optional;

/**
 * The typed query of {@code GET /api/v1.0/conversion-paths} (spec 4.4): read and checked once, every message here.
 *
 * @param windowDays 0 = no look-back limit
 * @param after      the page cursor, null on the first page
 */
record ConversionPathsQuery(ConversionPaths.Type type, DateRange range, int windowDays, int pageSize,
                            ConversionPaths.Cursor after) {

    static final String IDS_NOT_SUPPORTED = "The ids parameter is not supported by this endpoint";
    static final String INVALID_TYPE = "Invalid value for parameter conversionType. Allowed values: SALE, CALL, LEAD";
    static final String INVALID_WINDOW = "Invalid days range for window of attribution: ";

    /** The declaration (unknown and repeated parameters are refused, spec 4.0). */
    interface Parameters extends QueryParameter.Paged {
        Spec conversionType = Spec.string("the conversion the paths lead to").required().oneOf("SALE", "CALL", "LEAD");
        Spec fromDate = Spec.date("converted at or after");
        Spec toDate = Spec.date("converted at or before");
        Spec windowAttributionDaysRange = Spec.string("look-back window in days, 0-365 (default 0: no limit)");
        Spec ids = Spec.refused(IDS_NOT_SUPPORTED);
    }

    static ConversionPathsQuery read(QueryParams q, String accountId, ZoneId zone, PageTokens tokens) {
        ConversionPaths.Type type;
        try {
            type = ConversionPaths.Type.valueOf(q.required("conversionType").toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(INVALID_TYPE);
        }
        DateRange range = DateRange.read(q, "fromDate", "toDate", zone, true);
        int window = window(q.string("windowAttributionDaysRange"));
        int pageSize = q.intInRange("pageSize", 50);
        ConversionPathsQuery first = new ConversionPathsQuery(type, range, window, pageSize, null);
        ConversionPaths.Cursor after = q.string("pageId").map(token -> {
            JsonNode c = tokens.open(token, accountId, first.fingerprint(), PageTokens.INVALID);
            if (c == null || !c.path("at").canConvertToLong() || !c.path("id").isTextual()) {
                throw ApiException.badRequest(PageTokens.INVALID);
            }
            return new ConversionPaths.Cursor(c.get("at").asLong(), c.get("id").asText());
        }).orElse(null);
        return new ConversionPathsQuery(type, range, window, pageSize, after);
    }

    /** The page token of the page after {@code next}, bound to this query's filters. */
    String nextPageId(ConversionPaths.Cursor next, String accountId, PageTokens tokens) {
        ObjectNode cursor = JsonBody.mapper().createObjectNode();
        cursor.put("at", next.at());
        cursor.put("id", next.id());
        return tokens.issue(accountId, fingerprint(), cursor);
    }

    /** What a page token is bound to: a token of another query is refused. */
    private String fingerprint() {
        return "conversion-paths|" + type + "|" + range.from().map(Object::toString).orElse("") + "|"
                + range.to().map(Object::toString).orElse("") + "|" + windowDays;
    }

    private static int window(Optional<String> raw) {
        if (raw.isEmpty()) {
            return 0;
        }
        try {
            int v = Integer.parseInt(raw.get());
            if (v >= 0 && v <= 365) {
                return v;
            }
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw ApiException.badRequest(INVALID_WINDOW + raw.get());
    }
}
