package dev.attribution.query.leads;

import dev.attribution.api.DateRange;
import dev.attribution.api.QueryParams;

import java.time.ZoneId;
import java.util.List;

/**
 * The filters of {@code GET /leads} and {@code GET /leads/aggregation} (spec 4.1), read with the shared list and
 * date-range rules. {@link #fingerprint()} identifies the query for page tokens.
 */
public record LeadFilter(
        List<String> ids,
        List<String> emails,
        List<String> phones,
        List<String> tags,
        DateRange tagged,
        List<String> stages,
        DateRange joined,
        DateRange updated) {

    public static final int MAX_LIST = 50;

    public static LeadFilter read(QueryParams q, ZoneId zone) {
        return new LeadFilter(
                q.list("ids", MAX_LIST),
                q.list("emails", MAX_LIST),
                q.list("phones", MAX_LIST),
                q.list("tags", MAX_LIST),
                DateRange.read(q, "tagFromDate", "tagToDate", zone, false),
                q.list("stage", MAX_LIST),
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
    }

    public String fingerprint() {
        return Integer.toHexString(toString().hashCode());
    }
}
