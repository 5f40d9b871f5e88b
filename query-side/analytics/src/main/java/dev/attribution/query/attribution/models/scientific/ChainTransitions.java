package dev.attribution.query.attribution.models.scientific;

import dev.attribution.query.attribution.clickhouse.AttributionQuery;
import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;
import dev.attribution.query.attribution.clickhouse.ClicksByLead;
import dev.attribution.query.attribution.clickhouse.ScopeAds;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The scientific chain's transition counts over every path of a window, from {@code clicks_by_lead}
 * (064_clicks_by_lead.sql: the clicks with a lead, narrow, sorted by lead), with the same answer as
 * {@link TouchPaths#transitions} (docs/attribution-models.md, "Scientific", "How the paths are read"; docs/BENCHMARKS.md).
 * <p>
 * ClickHouse sends each raw click row and each kept sale of the window as one UInt64 beside its lead_key and
 * lead_check: its time (epoch seconds) in the high 32 bits, then flags (a sale; a click that does not count: deleted,
 * or dropped by the click filters; organic) and the click's channel as a small integer ({@link Codes}: the level's
 * entities of the account, numbered once per request from {@code ads_current}). No FINAL, no click id, no GROUP BY
 * of a million leads: {@link LeadPaths} groups and sorts the numbers in Java and cuts and counts the paths. A lead
 * whose clicks all have different times has one row per click (every version of a click shares its time), so its own
 * rows are its deduplicated clicks and sorting the numbers orders them by (time, click id). A lead with two rows of
 * one time (versions of a click, or two clicks of one second) is "tied": its paths are counted again exactly — newest
 * version per click id, sorted by (time, click id) — by a statement over those leads only.
 * <p>
 * The rows are grouped by {@code lead_key} (cityHash64 of the lead id, kept in the table); a group whose rows carry
 * two different {@code lead_check} (farmHash64 of the lead id: two leads of one key) is tied too. Two different lead
 * ids equal under both 64-bit hashes would go undetected (about 1e-27 for 1 M leads).
 */
public final class ChainTransitions {

    /** More ads at the level than this and the codes would not fit a statement: {@link TouchPaths#transitions} is used. */
    static final int MAX_ADS = ScopeAds.MAX_INLINED;

    static final long CHANNEL = (1L << 24) - 1;
    static final long ORGANIC = 1L << 24;
    static final long DROPPED = 1L << 25;
    static final long SALE = 1L << 26;
    /** The states beside the channels' codes: START, CONVERSION, NULL. */
    static final long START = CHANNEL;
    static final long CONVERSION = CHANNEL - 1;
    static final long NULL = CHANNEL - 2;
    /** A transition's number: from state in bits 24-47, to state in bits 0-23. */
    static final int FROM = 24;
    /** A kept sale's number in SQL: its time and the sale flag. */
    private static final String SALE_NUMBER = "bitOr(bitShiftLeft(toUInt64(toUInt32(sale_at)), 32), " + SALE + ")";
    /** Tied groups named in one IN list at most; beyond, every lead is counted exactly. */
    private static final int MAX_TIED_LISTED = 5000;
    /** The number of lead_key ranges read and counted at once (the cores of the machine measured on). */
    static final int PARTS = 2;

    /**
     * The channels of one request as integers: code 0 is {@link PathCredit#OTHER}, codes 1..n the level's entities
     * (sorted); {@code sql} gives a click's code from its {@code ad_key} column of {@code clicks_by_lead}
     * ({@code cityHash64(platform, ad)}, 065_clicks_by_lead_ad_key.sql) looked up among the same hash of the ads'
     * {@code (platform, ad_id)}: a number read and looked up instead of two strings (half the CPU of a range's clicks).
     * Two different (platform, ad) pairs of one hash would share a code: about 1e-13 for
     * 10,000 distinct click ads against 2,000 ads.
     */
    record Codes(List<String> names, String sql) {

        /** The codes of the account's ads at the level, or null when there are more than {@link #MAX_ADS}. */
        static Codes read(ClickHouseGateway clickHouse, String accountId, ScientificAttribution.Channels channels) {
            List<JsonNode> rows = clickHouse.select("SELECT " + channels.column().name() + " AS entity, toString(cityHash64(platform, ad_id)) AS ad_key FROM "
                    + clickHouse.database() + ".ads_current WHERE account_id = " + ClickHouseSql.str(accountId)
                    + (channels.platform() == null ? "" : " AND platform = " + ClickHouseSql.str(channels.platform()))
                    + " AND ad_id != '' LIMIT " + (MAX_ADS + 1));
            if (rows.size() > MAX_ADS || rows.size() >= NULL) {
                return null;
            }
            // an entity '' is no entity, and one named like (other) is that state, as in TouchPaths' strings
            TreeSet<String> entities = new TreeSet<>();
            rows.forEach(r -> entities.add(r.get("entity").asText()));
            entities.remove("");
            entities.remove(PathCredit.OTHER);
            List<String> names = new ArrayList<>();
            names.add(PathCredit.OTHER);
            names.addAll(entities);
            Map<String, Integer> code = new HashMap<>();
            for (int i = 1; i < names.size(); i++) {
                code.put(names.get(i), i);
            }
            Map<String, Integer> byAdKey = new TreeMap<>();
            for (JsonNode r : rows) {
                Integer c = code.get(r.get("entity").asText());
                if (c != null) {
                    byAdKey.put(r.get("ad_key").asText(), c);
                }
            }
            if (byAdKey.isEmpty()) {
                return new Codes(names, "toUInt64(0)");
            }
            return new Codes(names, "toUInt64(transform(ad_key, CAST([" + String.join(", ", byAdKey.keySet())
                    + "] AS Array(UInt64)), [" + byAdKey.values().stream().map(String::valueOf).collect(Collectors.joining(", ")) + "], 0))");
        }
    }

    private final ClickHouseGateway clickHouse;

    ChainTransitions(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    /**
     * Sends the count: one statement per range of lead_key (the table's first key column after the account), each
     * reading only that range's clicks and kept sales with one ClickHouse thread, its rows counted by a
     * {@link LeadPaths} as they arrive; {@link #count} waits for them. {@code detail}: the codes of the requested
     * entities (empty for none), whose untied leads' converting paths are kept whole.
     */
    List<Supplier<LeadPaths>> start(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, Set<Integer> detail) {
        boolean[] marked = new boolean[codes.names().size()];
        detail.forEach(c -> marked[c] = true);
        LeadPaths.Rules rules = LeadPaths.Rules.of(w, p.sources(), marked);
        List<Supplier<LeadPaths>> parts = new ArrayList<>();
        for (int part = 0; part < PARTS; part++) {
            String range = (part == 0 ? "" : " AND KEY >= " + bound(part)) + (part == PARTS - 1 ? "" : " AND KEY < " + bound(part + 1));
            parts.add(clickHouse.selectRowBinaryLater(rowsSql(accountId, codes, p, w, range), in -> {
                LeadPaths.Rows rows = LeadPaths.Rows.take();
                try {
                    return LeadPaths.count(rows.read(in), rules);
                } finally {
                    rows.release();
                }
            }));
        }
        return parts;
    }

    /** The lowest lead_key of range {@code part}: part × 2^64 / PARTS. */
    private static String bound(int part) {
        return java.math.BigInteger.ONE.shiftLeft(64).multiply(java.math.BigInteger.valueOf(part)).divide(java.math.BigInteger.valueOf(PARTS)).toString();
    }

    /**
     * What was counted, the tied leads added: the transitions; the paths kept whole, by {@code "<lead_key>:<sale
     * epoch>"}; the keys of the tied leads, whose paths were not kept; and whether every lead was counted exactly
     * instead (too many tied: then no path was kept).
     */
    record Counted(List<MarkovChain.Transition> transitions, Map<String, long[]> paths, Set<String> tied, boolean allExact) {
    }

    /** Waits for {@link #start}'s ranges and adds the tied leads' transitions, counted exactly. */
    Counted count(List<Supplier<LeadPaths>> parts, String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w) {
        LeadPaths.Counts counts = new LeadPaths.Counts();
        Set<String> tied = new TreeSet<>();
        Map<String, long[]> paths = new HashMap<>();
        for (Supplier<LeadPaths> part : parts) {
            LeadPaths counted = part.get();
            counts.addAll(counted.counts);
            tied.addAll(counted.tied);
            paths.putAll(counted.paths);
        }
        List<MarkovChain.Transition> out = new ArrayList<>();
        if (tied.size() > MAX_TIED_LISTED) {
            // too many to name: every lead counted exactly instead
            read(clickHouse.select(exactSql(accountId, codes, p, w, Set.of())), codes, out);
            return new Counted(out, Map.of(), tied, true);
        }
        counts.forEach((t, n) -> out.add(transition(t, n, codes)));
        if (!tied.isEmpty()) {
            read(clickHouse.select(exactSql(accountId, codes, p, w, tied)), codes, out);
        }
        return new Counted(out, paths, tied, false);
    }

    /** A touch of a path kept whole: its time, organic flag and channel (no two touches of it share a time). */
    static PathCredit.Touch touch(long number, Codes codes) {
        return new PathCredit.Touch(number >>> 32, "", (number & ORGANIC) != 0, codes.names().get((int) (number & CHANNEL)));
    }

    private static void read(List<JsonNode> rows, Codes codes, List<MarkovChain.Transition> out) {
        for (JsonNode row : rows) {
            out.add(transition(Long.parseUnsignedLong(row.get("t").asText()), row.get("n").asLong(), codes));
        }
    }

    /** The transition of number {@code t} (from state in bits 24-47, to state in bits 0-23), {@code n} times. */
    private static MarkovChain.Transition transition(long t, long n, Codes codes) {
        long a = t >>> FROM;
        long b = t & CHANNEL;
        return new MarkovChain.Transition(a == START ? null : codes.names().get((int) a),
                b == CONVERSION || b == NULL ? null : codes.names().get((int) b), b == CONVERSION, n);
    }

    /** A click row's number: time, dropped and organic flags, channel code ({@code code}, an expression). */
    private String number(String db, String acc, String code, AttributionQuery.Params p) {
        String dropped = "is_deleted = 1" + switch (p.sources()) {
            case only_paid -> " OR is_organic = 1";
            case only_organic -> " OR is_organic = 0";
            default -> "";
        } + (p.filters().reportSourceVisibility() ? " OR source_link_tag IN (SELECT tag FROM " + db + ".source_links_current WHERE account_id = "
                + acc + " AND deleted_at IS NOT NULL)" : "");
        return "bitOr(bitShiftLeft(toUInt64(toUInt32(click_date)), 32), bitOr(bitShiftLeft(toUInt64(" + dropped + "), 25), "
                + "bitOr(bitShiftLeft(toUInt64(is_organic), 24), " + code + ")))";
    }

    /** The raw click rows of the window that any path can hold, of the leads the lead filters keep (the account aside). */
    private String window(String db, String acc, AttributionQuery.Params p, TouchPaths.Window w) {
        return "click_date >= " + at(w.clicksFrom()) + " AND click_date <= " + at(w.salesEnd()) + stageLeads(db, acc, p);
    }

    /**
     * The rows {@link LeadPaths} counts, of the leads in {@code range} (conditions on KEY, each " AND …"), as
     * (lead_key, lead_check, e): every raw click row of the window (every version, without FINAL) and every kept
     * sale, deduplicated by numbers ({@link TouchPaths#keptSaleKeys}). The sales are read per range: grouping a
     * range's sales took less than half the CPU of grouping them all at once.
     */
    private String rowsSql(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, String range) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String clicks = "SELECT lead_key, lead_check, " + number(db, acc, codes.sql(), p) + " AS e FROM " + db + ".clicks_by_lead WHERE account_id = " + acc
                + " AND " + window(db, acc, p, w) + range.replace("KEY", "lead_key");
        String sales = "SELECT lead_key, lead_check, " + SALE_NUMBER + " AS e FROM "
                + TouchPaths.keptSaleKeys(db, accountId, p, w, range.replace("KEY", "cityHash64(lead_id)")) + " AS ks";
        return "SELECT lead_key, lead_check, e FROM (" + clicks + " UNION ALL " + sales + ") AS u SETTINGS max_threads = 1";
    }

    /**
     * The exact count of the leads of {@code tied} (lead_key values; every lead when empty): rows (t, n), t a
     * transition's number counted n times. The leads' clicks are deduplicated (newest version per id) and each number
     * paired with its click id, so that a sort orders them by (time, click id); the rules are those of
     * {@link LeadPaths}.
     */
    private String exactSql(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, Set<String> tied) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        String keys = "(" + String.join(", ", tied) + ")";
        String leads = tied.isEmpty() ? "" : " AND lead_key IN " + keys;
        // the newest version of each click (a click's date and ad_key never change: they are part of the group)
        String clicks = "SELECT lead_id, " + entry(number(db, acc, codes.sql(), p), "id") + " AS e FROM " + ClicksByLead.newest(db, accountId, "",
                window(db, acc, p, w) + leads, "lead_id, click_date, id, ad_key", "lead_id, click_date, id, ad_key", "is_deleted").subquery("dc");
        String sales = "SELECT lead_id, " + entry(SALE_NUMBER, "''") + " AS e FROM "
                + TouchPaths.keptSales(db, accountId, p, w, "", false) + " AS ks" + (tied.isEmpty() ? "" : " WHERE cityHash64(lead_id) IN " + keys);
        String perLead = "SELECT lead_id AS lk, groupArray(e) AS t FROM (" + clicks + " UNION ALL " + sales + ") AS u GROUP BY lk";
        String time = "toInt64(tupleElement(x, 1))";
        String bits = "tupleElement(x, 3)";
        // sorted once: by time, then click id; the filters below keep that order
        String split = "SELECT lk, arrayFilter(x -> bitAnd(" + bits + ", " + SALE + ") = 0, ts) AS c, arrayFilter(x -> bitAnd(" + bits
                + ", " + SALE + ") != 0, ts) AS s FROM (SELECT lk, arraySort(t) AS ts FROM (" + perLead + ") AS pl) AS so";
        String kept = "SELECT lk, notEmpty(s) AS converted, arrayMap(x -> " + time + ", s) AS sale_at, arrayFilter(x -> bitAnd(" + bits + ", "
                + DROPPED + ") = 0, c) AS k FROM (" + split + ") AS sp";
        // one row per path: one per kept sale of the lead, or one non-converting path
        String bounded = "SELECT lk, converted, sale_epoch, k, if(converted, sale_epoch - " + w.back() + ", " + w.nonConvertingFrom()
                + ") AS lo_at, if(converted, sale_epoch, " + w.end() + ") AS hi_at FROM (" + kept
                + ") AS kp ARRAY JOIN if(converted, sale_at, [toInt64(0)]) AS sale_epoch";
        // 18.16 drops a subquery column that only a lambda reads ("Unknown identifier"): lo_at / hi_at are also read
        // outside the lambda, up to the query that uses wt (lo_at <= hi_at always holds)
        String windowed = "SELECT lk, converted, lo_at, hi_at, arrayFilter(x -> " + time + " >= lo_at AND " + time
                + " <= hi_at, k) AS wt FROM (" + bounded + ") AS b";
        String preferred = switch (p.sources()) {
            case prioritize_paid -> "= 0";
            case prioritize_organic -> "!= 0";
            default -> null;
        };
        String kind = preferred == null ? "wt" : "if(arrayExists(x -> bitAnd(" + bits + ", " + ORGANIC + ") " + preferred + ", wt), "
                + "arrayFilter(x -> bitAnd(" + bits + ", " + ORGANIC + ") " + preferred + ", wt), wt)";
        String paths = "SELECT converted, arrayMap(x -> bitAnd(" + bits + ", " + CHANNEL + "), " + kind + ") AS ch FROM (" + windowed
                + ") AS wd WHERE notEmpty(wt) AND lo_at <= hi_at";
        // START -> c1 -> ... -> ck -> CONVERSION or NULL, each transition one number
        String transitions = "arrayMap((a, b) -> bitOr(bitShiftLeft(a, " + FROM + "), b), arrayConcat([toUInt64(" + START + ")], ch), "
                + "arrayConcat(ch, [toUInt64(if(converted, " + CONVERSION + ", " + NULL + "))]))";
        return "SELECT t, count() AS n FROM (SELECT " + transitions + " AS tr FROM (" + paths + ") AS pa) AS pt ARRAY JOIN tr AS t GROUP BY t";
    }

    /** A path entry of the exact count: (time, click id, number), so that a sort orders by (time, click id). */
    private static String entry(String number, String id) {
        return "(toUInt32(bitShiftRight(" + number + ", 32)), " + id + ", " + number + ")";
    }

    private static String at(long epochSecond) {
        return "toDateTime(" + epochSecond + ", 'UTC')";
    }

    private static String stageLeads(String db, String acc, AttributionQuery.Params p) {
        return p.leadStagesLower().isEmpty() ? "" : " AND lead_id IN (SELECT id FROM " + db + ".leads_current WHERE account_id = " + acc
                + " AND lower(stage_name) IN " + ClickHouseSql.strList(p.leadStagesLower()) + ")";
    }
}
