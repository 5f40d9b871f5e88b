package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.clickhouse.AdScope;
import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import dev.attribution.query.attribution.metrics.TimeBuckets;
import dev.attribution.query.attribution.models.AttributionRows;
import dev.attribution.query.attribution.models.KeywordAttribution;
import dev.attribution.query.attribution.request.AttributionOptions;
import dev.attribution.query.attribution.request.AttributionRequest;
import dev.attribution.api.ApiException;
import dev.attribution.api.QueryParams;
import dev.attribution.clickhouse.ClickHouseGateway;
import jakarta.inject.Singleton;

import java.math.BigDecimal;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code GET /attribution?attributionModel=scientific} (spec 4.5): first-order Markov-chain removal-effect attribution
 * over the touch paths of the range, as docs/attribution-models.md ("Scientific") defines it. The paths come from
 * ClickHouse ({@link TouchPaths}); the chain is solved in Java ({@link MarkovChain}). Model-independent metrics (name, parent_name, leads,
 * clicks, cost) and the rows themselves come from the click report ({@link AttributionRows}). The same touch paths
 * serve every model at keyword levels ({@link KeywordAttribution}), whose channels no ad column names.
 */
@Singleton
public class ScientificAttribution {

    static final String INVALID_DAYS = "Invalid days range for scientific attribution: ";

    /**
     * What a click's channel is: the {@code column} (ad_id, ad_set_id, campaign_id, ad_account_id) of its ad on
     * {@code platform} (null = every platform), or with {@code keyword} the ad group and the keyword id of its tracked
     * URL's {@code targetid} ({@code <adGroupId>:<keywordId>}, docs/attribution-models.md "Keyword levels").
     */
    public record Channels(String platform, AdScope.Column column, boolean keyword) {

    public     static Channels of(AttributionRequest.Level level) {
            return new Channels(level.platform(), level.column(), level.keyword());
        }

        /** The channel expression over the joined click (kwd) and ad (ad_entity) columns. */
        String sql() {
            return keyword ? "if(ad_entity != '' AND kwd != '', concat(ad_entity, ':', kwd), '')" : "ad_entity";
        }
    }

    private final ClickHouseGateway clickHouse;
    private final TouchPaths paths;
    private final ChainTransitions chainCounts;
    private final AttributionRows rows;

    public ScientificAttribution(ClickHouseGateway clickHouse, AttributionRows rows) {
        this.clickHouse = clickHouse;
        this.paths = new TouchPaths(clickHouse);
        this.chainCounts = new ChainTransitions(clickHouse);
        this.rows = rows;
    }

    /** {@code scientificDaysRange}: 1-30, default 30 (spec 4.5, 8.2). */
    public static int daysRange(QueryParams q) {
        Optional<String> raw = q.string("scientificDaysRange");
        if (raw.isEmpty()) {
            return 30;
        }
        try {
            int v = Integer.parseInt(raw.get().trim());
            if (v >= 1 && v <= 30) {
                return v;
            }
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw ApiException.badRequest(INVALID_DAYS + raw.get());
    }

    /** The look-back of a path in days: scientificDaysRange, cut to windowAttributionDaysRange when that is set. */
    static int lookBack(int scientificDays, int windowDays) {
        return windowDays > 0 ? Math.min(scientificDays, windowDays) : scientificDays;
    }

    /**
     * {@code GET /attribution} with the scientific model and every option of the click models: the rows (sources of
     * the request or of an ad-account page, or date buckets) are those of {@link AttributionRows}, with the
     * model-independent metrics; the scientific credit of each row is laid over them.
     */
    public AttributionRows.Page report(String accountId, ZoneId zone, AttributionRequest r, AttributionOptions o,
                                       List<String> stagesLower, int scientificDays) {
        AttributionQuery.Params p = AttributionQuery.Params.of(r, zone, o.filters(), stagesLower, o.grouping());
        Channels channels = Channels.of(r.level());
        // the chain's count does not depend on the rows: sent first, read when the rows are there (a request that
        // names no existing source still spends it)
        // with the requested ids known now (not a page of an ad account), the chain's statement also returns the
        // converting paths of the leads touching them
        Set<String> detail = o.adAccountId().isPresent() ? null : new LinkedHashSet<>(r.ids());
        Chain started = r.model() == AttributionRequest.Model.scientific ? startChain(accountId, channels, p, scientificDays, detail) : null;
        AttributionRows.Page base = rows.report(accountId, zone, r.withModelAndFields(AttributionRequest.Model.last_click, BASE),
                o, stagesLower, true);
        Set<String> entities = new LinkedHashSet<>();
        if (o.grouping().isPresent()) {
            r.ids().stream().filter(id -> !base.unknownIds().contains(id)).forEach(entities::add);
        } else {
            base.rows().forEach(row -> entities.add((String) row.get("id")));
        }
        Map<String, PathCredit.Credit> credit = credit(accountId, channels, entities, p, scientificDays, r.model(), started);
        boolean keepAll = o.grouping().isEmpty() && (o.status().isPresent() || o.adAccountId().isPresent());
        return new AttributionRows.Page(overlay(base.rows(), credit, o.grouping(), r.fields(), keepAll), base.unknownIds(),
                base.nextPageId());
    }

    /** The metrics that do not depend on the model, read from the click report's rows. */
    public static final List<String> BASE = List.of("name", "parent_name", "leads", "clicks", "cost");

    /**
     * Lays the scientific credit over rows of the click report that hold {@link #BASE}: a source row is keyed by its
     * id, a bucket row by the uncut start of its bucket. A row without credit, clicks or cost is dropped unless
     * {@code keepAll}.
     */
    public static List<Map<String, Object>> overlay(List<Map<String, Object>> baseRows, Map<String, PathCredit.Credit> credit,
                                             Optional<TimeBuckets.Unit> grouping, List<String> fields, boolean keepAll) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Map<String, Object> b : baseRows) {
            String key = grouping.map(u -> TimeBuckets.startOf(u, java.time.LocalDate.parse((String) b.get("start_date"))).toString())
                    .orElse((String) b.get("id"));
            PathCredit.Credit c = credit.get(key);
            long leads = ((Number) b.get("leads")).longValue();
            long clickCount = ((Number) b.get("clicks")).longValue();
            long cost = ((BigDecimal) b.get("cost")).movePointRight(2).longValueExact();
            if (!keepAll && c == null && clickCount == 0 && cost == 0) {
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", b.get("id"));
            if (grouping.isPresent()) {
                row.put("start_date", b.get("start_date"));
                row.put("end_date", b.get("end_date"));
                row.put("name", b.get("name"));
            }
            for (String f : fields) {
                if (grouping.isPresent() && f.equals("name")) {
                    continue;
                }
                Object v = f.equals("parent_name") ? b.get("parent_name")
                        : PathCredit.metric(f, c == null ? new PathCredit.Credit() : c, leads, clickCount, cost, (String) b.get("name"));
                row.put(f, v == null ? com.fasterxml.jackson.databind.node.NullNode.getInstance() : v);
            }
            out.add(row);
        }
        return out;
    }

    /**
     * The credit by row key (docs/attribution-models.md): for {@code scientific} the chain over the account's paths
     * under {@code p}'s options, each sale's share per channel dated (sale date, or with dayOfAttribution the
     * channel's last touch on the path); for the click models (keyword levels) the whole sale to the channel of the
     * touch the model picks, dated by the sale or that touch. Summed per channel of {@code entities} or, with a
     * grouping, per bucket over them.
     * <p>
     * The chain is counted in ClickHouse ({@link ChainTransitions}, else {@link TouchPaths#transitions}): only its transition counts come back, not the paths.
     * The paths read in full ({@link TouchPaths#converting}) are those of the sales of leads with a click on one of
     * {@code entities}: every share a row sums is one of theirs, and a lead's other sales (which spread its customer
     * count) are read with them. Both read only the raw click and sale versions dated in the windows the paths need
     * (a click's date, platform and ad ids and a sale's date never change, see {@link AttributionQuery#scopeClicks}).
     */
    public Map<String, PathCredit.Credit> credit(String accountId, Channels channels, Set<String> entities, AttributionQuery.Params p,
                                      int scientificDays, AttributionRequest.Model model) {
        if (entities.isEmpty()) {
            return new LinkedHashMap<>();
        }
        return credit(accountId, channels, entities, p, scientificDays, model,
                model == AttributionRequest.Model.scientific ? startChain(accountId, channels, p, scientificDays, entities) : null);
    }

    /**
     * The chain's count from {@code clicks_by_lead} ({@link ChainTransitions}), sent and not yet read; null where it
     * does not apply (keyword levels, more than {@link ChainTransitions#MAX_ADS} ads at the level): the chain is
     * then counted by {@link TouchPaths#transitions}.
     */
    private record Chain(ChainTransitions.Codes codes, TouchPaths.Window window, Set<String> detail,
                         List<java.util.function.Supplier<LeadPaths>> parts) {
    }

    /**
     * Sends the chain's count; with {@code detail} (the entities whose converting paths the report reads, a superset
     * is fine: null when not known yet) the statement also returns those paths.
     */
    private Chain startChain(String accountId, Channels channels, AttributionQuery.Params p, int scientificDays, Set<String> detail) {
        if (channels.keyword()) {
            return null;
        }
        ChainTransitions.Codes codes = ChainTransitions.Codes.read(clickHouse, accountId, channels);
        if (codes == null) {
            return null;
        }
        TouchPaths.Window w = TouchPaths.Window.of(p, true, scientificDays);
        Set<Integer> detailCodes = new java.util.TreeSet<>();
        if (detail != null) {
            for (int c = 1; c < codes.names().size(); c++) {
                if (detail.contains(codes.names().get(c))) {
                    detailCodes.add(c);
                }
            }
        }
        return new Chain(codes, w, detail, chainCounts.start(accountId, codes, p, w, detailCodes));
    }

    private Map<String, PathCredit.Credit> credit(String accountId, Channels channels, Set<String> entities, AttributionQuery.Params p,
                                                  int scientificDays, AttributionRequest.Model model, Chain started) {
        if (entities.isEmpty()) {
            return new LinkedHashMap<>();
        }
        boolean chain = model == AttributionRequest.Model.scientific;
        TouchPaths.Window w = TouchPaths.Window.of(p, chain, scientificDays);
        List<PathCredit.Sale> converting;
        List<MarkovChain.Transition> transitions = null;
        if (started != null && started.detail() != null && started.detail().containsAll(entities)) {
            // the converting paths came with the chain's count: only their sales are read, while it runs; the tied
            // leads' paths (not returned) are read exactly after it
            List<com.fasterxml.jackson.databind.JsonNode> sales = clickHouse.select(paths.touchingSalesSql(accountId, channels, entities, p, w, null));
            ChainTransitions.Counted counted = chainCounts.count(started.parts(), accountId, started.codes(), p, w);
            transitions = counted.transitions();
            if (counted.allExact()) {
                converting = paths.converting(clickHouse.select(paths.convertingSql(accountId, channels, entities, p, w, started.codes())), p,
                        started.codes());
            } else {
                converting = paths.converting(sales, counted, p, started.codes());
                if (!counted.tied().isEmpty()) {
                    converting.addAll(paths.converting(clickHouse.select(paths.convertingSql(accountId, channels, entities, p, w, started.codes(),
                            counted.tied())), p, started.codes()));
                }
            }
        } else if (started != null) {
            // the converting paths read while the chain's count runs
            converting = paths.converting(clickHouse.select(paths.convertingSql(accountId, channels, entities, p, w, started.codes())), p,
                    started.codes());
            transitions = chainCounts.count(started.parts(), accountId, started.codes(), p, w).transitions();
        } else {
            converting = paths.converting(accountId, channels, entities, p, w);
            if (chain) {
                transitions = paths.transitions(accountId, channels, p, w);
            }
        }
        // Row order from ClickHouse is not fixed: sort, so the sums (and their last bits) are reproducible.
        converting.sort(Comparator.comparing(PathCredit.Sale::saleId).thenComparing(PathCredit.Sale::leadId));
        long from = p.start().getEpochSecond();
        long to = p.end().getEpochSecond();
        Function<PathCredit.Item, String> bucket = i -> i.at() < from || i.at() > to ? null
                : p.grouping().map(u -> TimeBuckets.startOf(u, java.time.LocalDate.ofInstant(java.time.Instant.ofEpochSecond(i.at()), p.zone())).toString())
                .orElse("");
        Function<PathCredit.Item, String> rowKey = i -> !entities.contains(i.channel()) ? null : p.grouping().isPresent() ? bucket.apply(i) : i.channel();
        List<PathCredit.Item> items = chain
                ? PathCredit.items(converting, MarkovChain.ofTransitions(transitions).removalEffects(), p.dayOfAttribution())
                : PathCredit.picked(converting, model == AttributionRequest.Model.first_click, p.dayOfAttribution());
        return PathCredit.sum(items, rowKey, bucket, !chain);
    }

    /**
     * Leads and clicks per row key (channel of {@code entities}, or bucket of the click date over them): the clicks in
     * the range, with the click filters of {@code p}, as the click reports count them.
     */
    public Map<String, long[]> traffic(String accountId, Channels channels, Set<String> entities, AttributionQuery.Params p) {
        return paths.traffic(accountId, channels, entities, p);
    }
}
