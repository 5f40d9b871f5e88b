package dev.attribution.query.leads;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.api.ApiDates;
import dev.attribution.api.JsonBody;
import dev.attribution.views.Attribution;

import java.time.OffsetDateTime;
import java.time.ZoneId;

/**
 * How a lead's first or last source ({@link Attribution}, spec 2.6) is read from PostgreSQL: the SQL of its select
 * columns, and the reading of the JSON those columns hold.
 */
public final class AttributionColumns {

    private AttributionColumns() {
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

    /**
     * The chosen touch ({@code touch}, one row of {@link #touches}, filtered by {@code where}) joined to its live source
     * link (spec 2.6: the source's id, name, disregarded and organic flags, traffic source, goal and category as
     * {@code GET /sources} renders them) and, for a click on an ad, the ad's name as {@code GET /ads} renders it.
     * {@code account} and {@code lead} are read inside these subqueries: a caller's alias must not be one of theirs
     * (ck, lt, t, touch, sl, ts, g, sc, named_ad, picked), or it would name their row instead.
     */
    private static String pick(String account, String lead, String where, boolean first, String alias) {
        return "(SELECT to_jsonb(picked) FROM (SELECT touch.*, sl.id AS source_link_id, sl.name AS source_name,"
                + " sl.disregarded AS source_disregarded, sl.organic AS source_organic,"
                + " sl.traffic_source_id, ts.name AS ts_name, sl.goal_id, g.name AS goal_name, sl.category_id, sc.name AS category_name,"
                + " (SELECT NULLIF(named_ad.name, '') FROM ads named_ad WHERE named_ad.account_id = " + account
                + " AND named_ad.ad_id = touch.adspend_ad_id ORDER BY named_ad.platform = touch.platform DESC LIMIT 1) AS ad_name"
                + " FROM (SELECT * FROM (" + touches(account, lead) + ") t" + where + " ORDER BY t.d " + (first ? "ASC" : "DESC")
                + ", t.pri LIMIT 1) touch"
                + " LEFT JOIN source_links sl ON sl.account_id = " + account + " AND lower(sl.tag) = lower(touch.tag) AND sl.deleted_at IS NULL"
                + " LEFT JOIN traffic_sources ts ON ts.account_id = sl.account_id AND ts.id = sl.traffic_source_id"
                + " LEFT JOIN source_goals g ON g.account_id = sl.account_id AND g.id = sl.goal_id"
                + " LEFT JOIN source_categories sc ON sc.account_id = sl.account_id AND sc.id = sl.category_id) picked) AS " + alias;
    }

    /**
     * A select-list column holding the first ({@code first=true}) or last touch, as JSON, of the lead {@code lead} of
     * account {@code account} (SQL expressions).
     */
    public static String column(boolean first, String account, String lead, String alias) {
        return pick(account, lead, "", first, alias);
    }

    /**
     * The first or last source of a sale, call, cart or subscription (spec 2.7–2.10): the touch of its lead (row
     * alias {@code row}, columns {@code account_id} and {@code lead_id}) made no later than {@code row.<at>} — the
     * sources that led to it, not those that came after.
     */
    public static String columnAsOf(boolean first, String row, String at, String alias) {
        return pick(row + ".account_id", row + ".lead_id", " WHERE t.d <= " + row + "." + at, first, alias);
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
        boolean linked = text(row, "source_link_id") != null;
        return new Attribution(
                text(row, "source_link_id"),
                linked && text(row, "source_name") != null ? text(row, "source_name") : tag.startsWith("@") ? tag.substring(1) : tag,
                tag,
                linked && row.path("source_disregarded").asBoolean(false),
                row.path("organic").asBoolean(false) || linked && row.path("source_organic").asBoolean(false),
                clickDate,
                text(row, "click_id"),
                adSourceId == null && platform == null ? null : new Attribution.AdSource(adSourceId, null, platform),
                adId == null ? null : new Attribution.SourceLinkAd(text(row, "ad_name"), adId),
                google ? text(row, "ad_source_click_id") : null,
                named(row, "traffic_source_id", "ts_name"),
                named(row, "goal_id", "goal_name"),
                named(row, "category_id", "category_name"));
    }

    private static Attribution.Named named(JsonNode row, String id, String name) {
        return text(row, id) == null ? null : new Attribution.Named(text(row, id), text(row, name));
    }

    private static String text(JsonNode row, String field) {
        JsonNode v = row.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
