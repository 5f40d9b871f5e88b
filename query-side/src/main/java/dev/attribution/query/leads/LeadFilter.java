package dev.attribution.query.leads;

import dev.attribution.api.DateRange;
import dev.attribution.api.QueryParameter.Spec;
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

    /** The filter's query parameters, declared by each endpoint that reads it. */
    public static final Spec IDS = Spec.list(50, "lead ids");
    public static final Spec EMAILS = Spec.list(50, "emails or email prefixes");
    public static final Spec PHONES = Spec.list(50, "phone numbers");
    public static final Spec TAGS = Spec.list(50, "tags; a lead carrying any of them matches");
    public static final Spec TAG_FROM_DATE = Spec.date("tagged at or after");
    public static final Spec TAG_TO_DATE = Spec.date("tagged at or before");
    public static final Spec STAGE = Spec.list(50, "current stage names");
    public static final Spec FROM_DATE = Spec.date("joined at or after");
    public static final Spec TO_DATE = Spec.date("joined at or before");
    public static final Spec UPDATED_FROM_DATE = Spec.date("updated at or after");
    public static final Spec UPDATED_TO_DATE = Spec.date("updated at or before");

    public static LeadFilter read(QueryParams q, ZoneId zone) {
        return new LeadFilter(
                q.list("ids"),
                q.list("emails"),
                q.list("phones"),
                q.list("tags"),
                DateRange.read(q, "tagFromDate", "tagToDate", zone, false),
                q.list("stage"),
                DateRange.read(q, "fromDate", "toDate", zone, true),
                DateRange.read(q, "updatedFromDate", "updatedToDate", zone, false));
    }

    public String fingerprint() {
        return Integer.toHexString(toString().hashCode());
    }
}
