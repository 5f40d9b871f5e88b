package dev.attribution.query.attribution.clickhouse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;
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
    /** platform → ad id → the ad's entity (the scope's row key), or null when the subquery is used. */
    private final Map<String, Map<String, String>> entities;
    private final AdScope scope;

    private ScopeAds(String subquery, Map<String, List<String>> byPlatform, Map<String, Map<String, String>> entities, AdScope scope) {
        this.subquery = subquery;
        this.byPlatform = byPlatform;
        this.entities = entities;
        this.scope = scope;
    }

    /** The ads of the account in {@code scope}. */
    public static ScopeAds read(ClickHouseGateway clickHouse, String accountId, AdScope scope) {
        return readLater(clickHouse, accountId, scope).get();
    }

    /** {@link #read}, sent now and read by {@code get()} (so that it runs beside a report's other first reads). */
    public static Supplier<ScopeAds> readLater(ClickHouseGateway clickHouse, String accountId, AdScope scope) {
        String subquery = "SELECT ad_id, platform FROM " + clickHouse.database() + ".ads_current WHERE account_id = "
                + Sql.str(accountId) + " AND " + scope.where();
        Supplier<List<JsonNode>> read = clickHouse.selectLater("SELECT ad_id, platform, " + scope.entity() + " AS ad_entity FROM "
                + clickHouse.database() + ".ads_current WHERE account_id = " + Sql.str(accountId) + " AND " + scope.where() + " LIMIT "
                + (MAX_INLINED + 1));
        return () -> {
            List<JsonNode> rows = read.get();
            if (rows.size() > MAX_INLINED) {
                return new ScopeAds(subquery, null, null, scope);
            }
            Map<String, List<String>> byPlatform = new TreeMap<>();
            Map<String, Map<String, String>> entities = new TreeMap<>();
            for (JsonNode r : rows) {
                byPlatform.computeIfAbsent(r.get("platform").asText(), p -> new ArrayList<>()).add(r.get("ad_id").asText());
                entities.computeIfAbsent(r.get("platform").asText(), p -> new TreeMap<>()).put(r.get("ad_id").asText(), r.get("ad_entity").asText());
            }
            byPlatform.values().forEach(java.util.Collections::sort);
            return new ScopeAds(subquery, byPlatform, entities, scope);
        };
    }

    /**
     * The ads of a scope of ads named by id on one platform ({@link AdScope.Column#ad_id}, a platform, no fixed entity)
     * whose every id the caller has already found in {@code ads_current} on that platform (the report's labels): the
     * same ads {@link #read} would read, known without a statement. Empty when the scope is not of that kind.
     */
    public static Optional<ScopeAds> known(AdScope scope) {
        if (scope.column() != AdScope.Column.ad_id || scope.platform().isEmpty() || scope.fixedEntity().isPresent()
                || scope.withAd() || scope.values().size() > MAX_INLINED) {
            return Optional.empty();
        }
        List<String> ids = new ArrayList<>(new java.util.TreeSet<>(scope.values()));
        Map<String, String> byAd = new TreeMap<>();
        ids.forEach(id -> byAd.put(id, id));
        return Optional.of(new ScopeAds(null, Map.of(scope.platform().get(), ids), Map.of(scope.platform().get(), byAd), scope));
    }

    /**
     * An expression naming the entity (the scope's row key, {@link AdScope#entity()}) of the row whose
     * {@code adColumn} and {@code platformColumn} name one of these ads — written into the statement, so that it
     * needs no join with {@code ads_current} — or empty when the ads are too many to inline (join it then). Rows of
     * other ads get ''.
     */
    public Optional<String> entity(String adColumn, String platformColumn) {
        if (scope.fixedEntity().isPresent()) {
            return Optional.of(scope.entity());
        }
        if (entities == null) {
            return Optional.empty();
        }
        if (scope.column() == AdScope.Column.ad_id) {
            return Optional.of(adColumn);
        }
        if (entities.isEmpty()) {
            return Optional.of("''");
        }
        if (entities.size() == 1) {
            Map<String, String> byAd = entities.values().iterator().next();
            return Optional.of("transform(" + adColumn + ", " + Sql.strArray(byAd.keySet()) + ", " + Sql.strArray(byAd.values()) + ", '')");
        }
        // several platforms: one key per (platform, ad), the platform's length first so that no two pairs share a key
        List<String> keys = new ArrayList<>();
        List<String> values = new ArrayList<>();
        entities.forEach((platform, byAd) -> byAd.forEach((ad, entity) -> {
            keys.add(platform.codePointCount(0, platform.length()) + ":" + platform + ad);
            values.add(entity);
        }));
        return Optional.of("transform(concat(toString(lengthUTF8(" + platformColumn + ")), ':', " + platformColumn + ", " + adColumn + "), "
                + Sql.strArray(keys) + ", " + Sql.strArray(values) + ", '')");
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
