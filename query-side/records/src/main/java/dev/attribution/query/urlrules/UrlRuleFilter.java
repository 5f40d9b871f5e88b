package dev.attribution.query.urlrules;

import dev.attribution.api.ApiException;
import dev.attribution.api.DateRange;
import dev.attribution.api.FixedSet;
import dev.attribution.api.QueryParams;

import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** The filters of {@code GET /url-rules} (spec 4.9), validated. */
public record UrlRuleFilter(List<String> ids, Optional<String> tag, Optional<String> actionType, DateRange created) {

    public static final List<String> ACTION_TYPES =
            List.of("ACTION", "SOURCE_LINK", "SALE", "SUBSCRIPTION", "LEAD_STAGE", "CALL_QUALIFICATION");
    public static final Pattern ID = Pattern.compile("ur-[0-9a-f]{16}");

    public static UrlRuleFilter read(QueryParams q, ZoneId zone) {
        List<String> ids = q.list("ids");
        for (String id : ids) {
            if (!ID.matcher(id).matches()) {
                throw ApiException.badRequest("Invalid field format: ids");
            }
        }
        Optional<String> type = q.string("urlRuleActionType")
                .map(v -> FixedSet.require("urlRuleActionType", v, ACTION_TYPES));
        return new UrlRuleFilter(ids, q.string("tag"), type, DateRange.read(q, "fromDate", "toDate", zone, true));
    }

    /** Binds a page token to these filters. */
    public String fingerprint() {
        return String.join("|", String.join(",", ids), tag.orElse(""), actionType.orElse(""),
                created.from().map(Object::toString).orElse(""), created.to().map(Object::toString).orElse(""));
    }
}
