package dev.attribution.query.paths;

import dev.attribution.api.NodeSide;
import dev.attribution.api.ServedBy;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.attribution.api.ApiException;
import dev.attribution.api.DateRange;
import dev.attribution.api.Envelopes;
import dev.attribution.api.JsonBody;
import dev.attribution.api.PageTokens;
import dev.attribution.api.QueryParameter;
import dev.attribution.api.QueryParameters;
import dev.attribution.api.QueryParams;
import dev.attribution.api.RequestIds;
import dev.attribution.api.auth.Caller;
import dev.attribution.api.auth.RequiresRole;
import dev.attribution.api.auth.Roles;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.swagger.v3.oas.annotations.Operation;

import java.util.Locale;
import java.util.Optional;

/** {@code GET /api/v1.0/conversion-paths} (spec 4.4): conversions of one type with their source touches, from ClickHouse. */
@ServedBy(NodeSide.QUERY)
@Controller("/api/v1.0/conversion-paths")
@Requires(beans = ConversionPaths.class)
class ConversionPathsController {

    static final String IDS_NOT_SUPPORTED = "The ids parameter is not supported by this endpoint";
    static final String INVALID_TYPE = "Invalid value for parameter conversionType. Allowed values: SALE, CALL, LEAD";
    static final String INVALID_WINDOW = "Invalid days range for window of attribution: ";

    private final ConversionPaths paths;
    private final PageTokens tokens;

    ConversionPathsController(ConversionPaths paths, PageTokens tokens) {
        this.paths = paths;
        this.tokens = tokens;
    }

    @Get
    @Operation(summary = "Conversion paths of leads that converted.")
    @RequiresRole(Roles.GET_CONVERSION_PATHS)
    @QueryParameters(value = Query.class, enforcing = true)
    Envelopes.Page<ConversionPath> list(QueryParams q, Caller caller) {
        String rawType = q.required("conversionType");
        ConversionPaths.Type type;
        try {
            type = ConversionPaths.Type.valueOf(rawType.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest(INVALID_TYPE);
        }
        DateRange range = DateRange.read(q, "fromDate", "toDate", caller.account().timeZone(), true);
        int window = window(q.string("windowAttributionDaysRange"));
        int pageSize = q.intInRange("pageSize", 50);
        String fingerprint = "conversion-paths|" + type + "|" + range.from().map(Object::toString).orElse("") + "|"
                + range.to().map(Object::toString).orElse("") + "|" + window;
        ConversionPaths.Cursor after = q.string("pageId").map(token -> {
            JsonNode c = tokens.open(token, caller.accountId(), fingerprint, PageTokens.INVALID);
            if (c == null || !c.path("at").canConvertToLong() || !c.path("id").isTextual()) {
                throw ApiException.badRequest(PageTokens.INVALID);
            }
            return new ConversionPaths.Cursor(c.get("at").asLong(), c.get("id").asText());
        }).orElse(null);
        ConversionPaths.Page page = paths.page(caller.accountId(), caller.account().timeZone(), type, range, window, after, pageSize);
        String next = null;
        if (page.next() != null) {
            ObjectNode cursor = JsonBody.mapper().createObjectNode();
            cursor.put("at", page.next().at());
            cursor.put("id", page.next().id());
            next = tokens.issue(caller.accountId(), fingerprint, cursor);
        }
        return new Envelopes.Page<>(page.rows(), next, RequestIds.current());
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

    interface Query extends QueryParameter.Paged {
        Spec conversionType = Spec.string("the conversion the paths lead to").required().oneOf("SALE", "CALL", "LEAD");
        Spec fromDate = Spec.date("converted at or after");
        Spec toDate = Spec.date("converted at or before");
        Spec windowAttributionDaysRange = Spec.string("look-back window in days, 0-365 (default 0: no limit)");
        Spec ids = Spec.refused(IDS_NOT_SUPPORTED);
    }
}
