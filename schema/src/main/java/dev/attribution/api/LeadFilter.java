package dev.attribution.api;

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

    /** The filter's query parameters, extended by the declaration of each endpoint that reads it. */
    public interface Parameters extends QueryParameter {
        Spec ids = Spec.list(50, "lead ids");
        Spec emails = Spec.contacts(50, "emails or email prefixes");
        Spec phones = Spec.contacts(50, "phone numbers");
        Spec tags = Spec.list(50, "tags; a lead carrying any of them matches");
        Spec tagFromDate = Spec.date("tagged at or after");
        Spec tagToDate = Spec.date("tagged at or before");
        Spec stage = Spec.list(50, "current stage names");
        Spec fromDate = Spec.date("joined at or after");
        Spec toDate = Spec.date("joined at or before");
        Spec updatedFromDate = Spec.date("updated at or after");
        Spec updatedToDate = Spec.date("updated at or before");
    }

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
