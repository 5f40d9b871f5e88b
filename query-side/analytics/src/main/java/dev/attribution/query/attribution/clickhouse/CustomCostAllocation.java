package dev.attribution.query.attribution.clickhouse;

import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.roas.AdEntity;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import jakarta.inject.Singleton;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Custom costs (spec 2.14) as cost of the attribution rows (docs/attribution-models.md, "Custom costs"): each day's
 * amount of a cost is split evenly over its tags, a tag's share evenly over the ads of the live source links
 * carrying that tag; remainders of the cent go to the first tag / ad in order. Days are the written dates.
 */
@Singleton
public class CustomCostAllocation {

    private final ClickHouseGateway clickHouse;

    public CustomCostAllocation(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    /** Custom cost in cents by row key (entity, or bucket start with a grouping) for the days from..to. */
    public Map<String, Long> byRow(String accountId, AdScope scope, LocalDate from, LocalDate to,
                                   Optional<TimeBuckets.Unit> grouping) {
        return byRowLater(accountId, scope, from, to, grouping).get();
    }

    /** {@link #byRow}, its first statement sent now (beside a report's sums), the rest done by {@code get()}. */
    public Supplier<Map<String, Long>> byRowLater(String accountId, AdScope scope, LocalDate from, LocalDate to,
                                                  Optional<TimeBuckets.Unit> grouping) {
        Supplier<Map<String, Map<LocalDate, Long>>> allocated = byEntityAndDayLater(accountId, scope, from, to);
        return () -> {
            Map<String, Long> out = new HashMap<>();
            allocated.get().forEach((entity, days) -> days.forEach((day, cents) ->
                    out.merge(grouping.map(u -> TimeBuckets.startOf(u, day).toString()).orElse(entity), cents, Long::sum)));
            return out;
        };
    }

    /**
     * Custom cost in cents of one entity of the ROAS and marginal-CAC endpoints, by day from..to (days with cost only):
     * the entity {@code id} whose scope is {@code scope} ({@link AdEntity#scope()}), its first statement sent now
     * (before the entity is resolved), the rest done by {@code get()}.
     */
    public Supplier<Map<LocalDate, Long>> byDayLater(String accountId, AdScope scope, String id, LocalDate from, LocalDate to) {
        Supplier<Map<String, Map<LocalDate, Long>>> allocated = byEntityAndDayLater(accountId, scope, from, to);
        return () -> allocated.get().getOrDefault(id, Map.of());
    }

    /**
     * Custom cost in cents by entity (of the {@code ads_current} rows in {@code scope}, the ads the costs' sources
     * point at) and day, for the days from..to: the costs' statement sent now, the allocation done by {@code get()}.
     */
    private Supplier<Map<String, Map<LocalDate, Long>>> byEntityAndDayLater(String accountId, AdScope scope, LocalDate from, LocalDate to) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        Supplier<List<JsonNode>> read = clickHouse.selectLater("SELECT id, toInt64(round(toFloat64(cost) * 100)) AS cents, frequency, "
                + "toString(toDate(start_date)) AS first_day, ifNull(toString(toDate(end_date)), '') AS last_day, tags FROM " + db
                + ".custom_costs_current WHERE account_id = " + acc + " AND notEmpty(tags) AND toDate(start_date) <= toDate('" + to + "')");
        return () -> allocate(read.get(), acc, scope, from, to);
    }

    private Map<String, Map<LocalDate, Long>> allocate(List<JsonNode> costs, String acc, AdScope scope, LocalDate from, LocalDate to) {
        String db = clickHouse.database();
        Map<String, Map<LocalDate, Long>> out = new HashMap<>();
        if (costs.isEmpty()) {
            return out;
        }
        List<String> tags = new ArrayList<>();
        costs.forEach(c -> c.get("tags").forEach(t -> tags.add(t.asText())));
        // tag → the ads its live source links point at (sorted: stable remainders), each with its entity when in scope
        // (null outside): a tag's share is split over all its ads, so a row's part does not depend on the scope
        Map<String, List<String>> entitiesByTag = new TreeMap<>();
        for (JsonNode row : clickHouse.select("SELECT l.tag AS link_tag, a.entity AS ad_entity, a.in_scope AS in_scope FROM "
                + "(SELECT tag, platform, ad_source_id AS ad_id FROM " + db + ".source_links_current WHERE account_id = " + acc
                + " AND isNull(deleted_at) AND ad_source_id != '' AND tag IN " + ClickHouseSql.strList(tags) + ") AS l ALL INNER JOIN "
                + "(SELECT platform, ad_id, " + scope.entity() + " AS entity, toUInt8(" + scope.where() + ") AS in_scope FROM " + db
                + ".ads_current WHERE account_id = " + acc + ") AS a USING (platform, ad_id) ORDER BY link_tag, platform, ad_id")) {
            entitiesByTag.computeIfAbsent(row.get("link_tag").asText(), k -> new ArrayList<>())
                    .add(row.get("in_scope").asInt() == 1 ? row.get("ad_entity").asText() : null);
        }
        for (JsonNode c : costs) {
            List<String> costTags = new ArrayList<>();
            c.get("tags").forEach(t -> costTags.add(t.asText()));
            long cents = c.get("cents").asLong();
            LocalDate first = LocalDate.parse(c.get("first_day").asText());
            String lastText = c.get("last_day").asText();
            LocalDate last = lastText.isEmpty() || LocalDate.parse(lastText).isAfter(to) ? to : LocalDate.parse(lastText);
            String frequency = c.get("frequency").asText();
            for (LocalDate d = first.isBefore(from) ? from : first; !d.isAfter(last); d = d.plusDays(1)) {
                long amount = switch (frequency) {
                    case "DAILY" -> cents;
                    case "ONE_TIME" -> d.equals(first) ? cents : 0;
                    // on the start's day of the month (the month's last day when shorter)
                    case "MONTHLY" -> d.getDayOfMonth() == Math.min(first.getDayOfMonth(), d.lengthOfMonth()) ? cents : 0;
                    default -> 0;
                };
                if (amount == 0) {
                    continue;
                }
                long[] perTag = split(amount, costTags.size());
                for (int i = 0; i < costTags.size(); i++) {
                    List<String> entities = entitiesByTag.getOrDefault(costTags.get(i), List.of());
                    long[] perAd = split(perTag[i], entities.size());
                    for (int j = 0; j < entities.size(); j++) {
                        if (entities.get(j) == null) {
                            continue;
                        }
                        out.computeIfAbsent(entities.get(j), k -> new TreeMap<>()).merge(d, perAd[j], Long::sum);
                    }
                }
            }
        }
        return out;
    }

    /** {@code amount} in {@code n} near-equal parts, the first ones a cent larger; nothing when n is 0. */
    static long[] split(long amount, int n) {
        long[] parts = new long[n];
        for (int i = 0; i < n; i++) {
            parts[i] = amount / n + (i < amount % n ? 1 : 0);
        }
        return parts;
    }
}
