package dev.attribution.query.leads;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;

import java.time.OffsetDateTime;
import java.time.ZoneId;

/**
 * Attribution of spec 2.6: a lead's first or last source, derived from its clicks on source links and its
 * {@code @} source tags. {@code clickId}, {@code adSource} and {@code sourceLinkAd} exist only when a click backs it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Attribution(
        String name,
        String tag,
        Boolean disregarded,
        Boolean organic,
        String clickDate,
        String clickId,
        AdSource adSource,
        SourceLinkAd sourceLinkAd,
        String gclId) {

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AdSource(String adSourceId, String adAccountId, String platform) {
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record SourceLinkAd(String name, String adSourceId) {
    }

    /**
     * SQL of one source touch per row ({@code d, tag, click_id, organic, platform, ad_source_id, adspend_ad_id,
     * ad_source_click_id, pri}) of the lead {@code lead} of account {@code account} (SQL expressions): its clicks
     * with a source link tag and its {@code @} tags.
     */
    private static String touches(String account, String lead) {
        return """
                SELECT ck.click_date AS d, ck.source_link_tag AS tag, ck.id AS click_id, ck.is_organic AS organic,
                       ck.integration_type AS platform, ck.ad_source_id, ck.adspend_ad_id, ck.ad_source_click_id, 0 AS pri
                FROM clicks ck WHERE ck.account_id = %1$s AND ck.lead_id = %2$s AND ck.source_link_tag IS NOT NULL
                UNION ALL
                SELECT lt.assigned_at, lt.tag, NULL, false, NULL, NULL, NULL, NULL, 1
                FROM lead_tags lt WHERE lt.account_id = %1$s AND lt.lead_id = %2$s AND lt.tag LIKE '@%%'""".formatted(account, lead);
    }

    /** A select-list column holding the first ({@code first=true}) or last touch of the lead aliased {@code l} as JSON. */
    public static String column(boolean first, String alias) {
        return "(SELECT to_jsonb(touch) FROM (" + touches("l.account_id", "l.id") + ") touch ORDER BY touch.d " + (first ? "ASC" : "DESC")
                + ", touch.pri LIMIT 1) AS " + alias;
    }

    /**
     * The first or last source of a sale, call, cart or subscription (spec 2.7–2.10): the touch of its lead (row
     * alias {@code row}, columns {@code account_id} and {@code lead_id}) made no later than {@code row.<at>} — the
     * sources that led to it, not those that came after.
     */
    public static String columnAsOf(boolean first, String row, String at, String alias) {
        return "(SELECT to_jsonb(touch) FROM (" + touches(row + ".account_id", row + ".lead_id") + ") touch WHERE touch.d <= " + row + "." + at
                + " ORDER BY touch.d " + (first ? "ASC" : "DESC") + ", touch.pri LIMIT 1) AS " + alias;
    }

    /** Both source columns ({@code first_source}, {@code last_source}) of {@link #columnAsOf}, for a select list. */
    public static String sourcesAsOf(String row, String at) {
        return columnAsOf(true, row, at, "first_source") + ", " + columnAsOf(false, row, at, "last_source");
    }

    /** Reads the JSON text of a rendered touch column; null stays null. */
    public static Attribution fromColumn(String json, ZoneId zone) {
        if (json == null) {
            return null;
        }
        try {
            return fromJson(JsonBody.mapper().readTree(json), zone);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable source touch: " + json, e);
        }
    }

    /** Reads a touch row rendered by {@link #column}; null stays null. */
    public static Attribution fromJson(JsonNode row, ZoneId zone) {
        if (row == null || row.isNull()) {
            return null;
        }
        String tag = row.path("tag").asText();
        String platform = text(row, "platform");
        String adSourceId = text(row, "ad_source_id");
        String adId = text(row, "adspend_ad_id");
        String clickDate = ApiDates.format(OffsetDateTime.parse(row.get("d").asText().replace(" ", "T")).toInstant(), zone);
        boolean google = platform != null && platform.startsWith("GOOGLE");
        return new Attribution(
                tag.startsWith("@") ? tag.substring(1) : tag,
                tag,
                false,
                row.path("organic").asBoolean(false),
                clickDate,
                text(row, "click_id"),
                adSourceId == null && platform == null ? null : new AdSource(adSourceId, null, platform),
                adId == null ? null : new SourceLinkAd(null, adId),
                google ? text(row, "ad_source_click_id") : null);
    }

    private static String text(JsonNode row, String field) {
        JsonNode v = row.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
