package dev.attribution.query.attribution.clickhouse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The one owner of reading a report's scope from {@code ads_current} (054_ads.sql): the ads a report covers — the
 * (ad, platform) pairs matching the report's condition — read once per report and written into its SQL as literals: {@code platform = 'P' AND ad IN (…)} is decided by the sort
 * keys of {@code clicks_by_ad} and {@code conversion_touches_by_ad} and evaluated per row far cheaper than a tuple
 * {@code IN (subquery)} (ClickHouse 18.16 spends most of a range read on the latter). Beyond {@value #MAX_INLINED}
 * ads the subquery is kept, so that no statement outgrows the server's query size limit.
 */
public final class ScopeAds {

    public static final int MAX_INLINED = 2000;

    private final String subquery;
    /** platform → ad ids (sorted, for stable SQL), or null when the subquery is used. */
    private final Map<String, List<String>> byPlatform;

    private ScopeAds(String subquery, Map<String, List<String>> byPlatform) {
        this.subquery = subquery;
        this.byPlatform = byPlatform;
    }

    /** The ads of the account in {@code scope}. */
    public static ScopeAds read(ClickHouseGateway clickHouse, String accountId, AdScope scope) {
        String subquery = "SELECT ad_id, platform FROM " + clickHouse.database() + ".ads_current WHERE account_id = "
                + Sql.str(accountId) + " AND " + scope.where();
        List<JsonNode> rows = clickHouse.select(subquery + " LIMIT " + (MAX_INLINED + 1));
        if (rows.size() > MAX_INLINED) {
            return new ScopeAds(subquery, null);
        }
        Map<String, List<String>> byPlatform = new TreeMap<>();
        for (JsonNode r : rows) {
            byPlatform.computeIfAbsent(r.get("platform").asText(), p -> new ArrayList<>()).add(r.get("ad_id").asText());
        }
        byPlatform.values().forEach(java.util.Collections::sort);
        return new ScopeAds(subquery, byPlatform);
    }

    /** A condition true for the rows whose {@code adColumn} and {@code platformColumn} name one of these ads. */
    public String condition(String adColumn, String platformColumn) {
        if (byPlatform == null) {
            return "(" + adColumn + ", " + platformColumn + ") IN (" + subquery + ")";
        }
        if (byPlatform.isEmpty()) {
            return "0";
        }
        return byPlatform.entrySet().stream()
                .map(e -> "(" + platformColumn + " = " + Sql.str(e.getKey()) + " AND " + adColumn + " IN "
                        + Sql.strList(e.getValue()) + ")")
                .collect(Collectors.joining(" OR ", "(", ")"));
    }
}
