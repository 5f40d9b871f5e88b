package dev.attribution.query.leads;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;

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
     * ad_source_click_id, pri}) for the lead aliased {@code l}: its clicks with a source link tag and its {@code @} tags.
     */
    public static final String TOUCHES = """
            SELECT c.click_date AS d, c.source_link_tag AS tag, c.id AS click_id, c.is_organic AS organic,
                   c.integration_type AS platform, c.ad_source_id, c.adspend_ad_id, c.ad_source_click_id, 0 AS pri
            FROM clicks c WHERE c.account_id = l.account_id AND c.lead_id = l.id AND c.source_link_tag IS NOT NULL
            UNION ALL
            SELECT t.assigned_at, t.tag, NULL, false, NULL, NULL, NULL, NULL, 1
            FROM lead_tags t WHERE t.account_id = l.account_id AND t.lead_id = l.id AND t.tag LIKE '@%'""";

    /** A select-list column holding the first ({@code first=true}) or last touch as JSON. */
    public static String column(boolean first, String alias) {
        return "(SELECT to_jsonb(s) FROM (" + TOUCHES + ") s ORDER BY s.d " + (first ? "ASC" : "DESC") + ", s.pri LIMIT 1) AS " + alias;
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
