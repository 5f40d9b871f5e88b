package dev.attribution.query.attribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.attribution.clickhouse.ClickHouseGateway;
import dev.attribution.clickhouse.ClickHouseSql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The scientific chain's transition counts over every path of a window, counted in ClickHouse from
 * {@code clicks_by_lead} (064_clicks_by_lead.sql: the clicks with a lead, narrow, sorted by lead), with the same
 * answer as {@link TouchPaths#transitions} (docs/attribution-models.md, "Scientific"; docs/BENCHMARKS.md).
 * <p>
 * Each click and each kept sale of the window becomes one UInt64: its time (epoch seconds) in the high 32 bits, then
 * flags (a sale; a click that does not count: deleted, or dropped by the click filters; organic) and the click's
 * channel as a small integer ({@link Codes}: the level's entities of the account, numbered once per request from
 * {@code ads_current}). The window's raw rows are grouped per lead into one array of those numbers, without FINAL and
 * without the click id: a lead whose clicks all have different times has one row per click (every version of a click
 * shares its time), so its own rows are its deduplicated clicks and sorting the numbers orders them by (time, click
 * id). A lead with two rows of one time (versions of a click, or two clicks of one second) is "tied": its paths are
 * counted again exactly — newest version per click id, sorted by (time, click id) — in a second statement over those
 * leads only.
 * <p>
 * The rows are grouped by {@code lead_key} (cityHash64 of the lead id, kept in the table; the String id costs ~0.6 s
 * more CPU per 3.3 M clicks here); a group whose rows carry two different {@code lead_check} (farmHash64 of the lead
 * id: two leads of one key) is tied too. Two different lead ids equal under both 64-bit hashes would go undetected
 * (about 1e-27 for 1 M leads).
 */
final class ChainTransitions {

    /** More ads at the level than this and the codes would not fit a statement: {@link TouchPaths#transitions} is used. */
    static final int MAX_ADS = ScopeAds.MAX_INLINED;

    private static final long CHANNEL = (1L << 24) - 1;
    private static final long ORGANIC = 1L << 24;
    private static final long DROPPED = 1L << 25;
    private static final long SALE = 1L << 26;
    /** The states beside the channels' codes: START, CONVERSION, NULL. */
    private static final long START = CHANNEL;
    private static final long CONVERSION = CHANNEL - 1;
    private static final long NULL = CHANNEL - 2;
    /** A transition's number: from state in bits 24-47, to state in bits 0-23. */
    private static final int FROM = 24;
    /** Tied groups named in one IN list at most; beyond, every lead is counted exactly. */
    private static final int MAX_TIED_LISTED = 5000;

    /**
     * The channels of one request as integers: code 0 is {@link PathCredit#OTHER}, codes 1..n the level's entities
     * (sorted); {@code sql} gives a click's code from its {@code platform} and {@code ad} columns.
     */
    record Codes(List<String> names, String sql) {

        /** The codes of the account's ads at the level, or null when there are more than {@link #MAX_ADS}. */
        static Codes read(ClickHouseGateway clickHouse, String accountId, ScientificAttribution.Channels channels) {
            List<JsonNode> rows = clickHouse.select("SELECT ad_id, platform, " + channels.column() + " AS entity FROM "
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
            Map<String, TreeMap<String, Integer>> byPlatform = new TreeMap<>();
            for (JsonNode r : rows) {
                Integer c = code.get(r.get("entity").asText());
                if (c != null) {
                    byPlatform.computeIfAbsent(r.get("platform").asText(), p -> new TreeMap<>()).put(r.get("ad_id").asText(), c);
                }
            }
            if (byPlatform.isEmpty()) {
                return new Codes(names, "toUInt64(0)");
            }
            String sql = byPlatform.entrySet().stream()
                    .map(e -> "platform = " + ClickHouseSql.str(e.getKey()) + ", toUInt64(transform(ad, [" + e.getValue().keySet().stream()
                            .map(ClickHouseSql::str).collect(Collectors.joining(", ")) + "], [" + e.getValue().values().stream()
                            .map(String::valueOf).collect(Collectors.joining(", ")) + "], 0))")
                    .collect(Collectors.joining(", ", "multiIf(", ", toUInt64(0))"));
            return new Codes(names, sql);
        }
    }

    private final ClickHouseGateway clickHouse;

    ChainTransitions(ClickHouseGateway clickHouse) {
        this.clickHouse = clickHouse;
    }

    /**
     * The statement counting the transitions of the untied leads' paths and naming the tied leads' keys. With
     * {@code detail} (codes of the requested entities; empty for none) it also returns the converting paths of the
     * untied leads with a window click on one of them: the numbers of each path's clicks in its window (deleted and
     * filtered clicks left out, sourceConfiguration's preference not applied), by (lead_key, sale time).
     */
    List<String> sql(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, Set<Integer> detail) {
        // one statement per range of lead_key (the table's first key column after the account): each reads only its
        // range, and their array work, which ClickHouse 18.16 does in one thread after a GROUP BY, runs side by side
        List<String> parts = new ArrayList<>();
        for (int part = 0; part < PARTS; part++) {
            String range = (part == 0 ? "" : " AND KEY >= " + bound(part)) + (part == PARTS - 1 ? "" : " AND KEY < " + bound(part + 1));
            // one thread each: the statements share the cores (measured: ~0.1 s less wall than two threads each)
            parts.add(sql(accountId, codes, p, w, null, detail, range) + " SETTINGS max_threads = 1");
        }
        return parts;
    }

    /** The number of lead_key ranges {@link #sql} counts at once (the cores of the machine measured on). */
    static final int PARTS = 2;

    /** The lowest lead_key of range {@code part}: part × 2^64 / PARTS. */
    private static String bound(int part) {
        return java.math.BigInteger.ONE.shiftLeft(64).multiply(java.math.BigInteger.valueOf(part)).divide(java.math.BigInteger.valueOf(PARTS)).toString();
    }

    /**
     * What {@link #sql} counted, the tied leads added: the transitions; the paths it returned, by
     * {@code "<lead_key>:<sale epoch>"}; the keys of the tied leads, whose paths it did not return; and whether every
     * lead was counted exactly instead (too many tied: then no path was returned).
     */
    record Counted(List<MarkovChain.Transition> transitions, Map<String, long[]> paths, Set<String> tied, boolean allExact) {
    }

    /** Reads {@link #sql}'s rows (run by the caller, e.g. beside other statements) and adds the tied leads' paths. */
    Counted count(List<JsonNode> rows, String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w) {
        List<MarkovChain.Transition> out = new ArrayList<>();
        Set<String> tied = new TreeSet<>();
        Map<String, long[]> paths = new HashMap<>();
        read(rows, codes, out, tied, paths);
        if (tied.size() > MAX_TIED_LISTED) {
            // too many to name: every lead counted exactly instead
            out.clear();
            read(clickHouse.select(sql(accountId, codes, p, w, Set.of(), Set.of())), codes, out, new TreeSet<>(), new HashMap<>());
            return new Counted(out, Map.of(), tied, true);
        } else if (!tied.isEmpty()) {
            read(clickHouse.select(sql(accountId, codes, p, w, tied, Set.of())), codes, out, new TreeSet<>(), new HashMap<>());
        }
        return new Counted(out, paths, tied, false);
    }

    /** A touch of a path {@link #sql} returned: its time, organic flag and channel (no two touches of it share a time). */
    static PathCredit.Touch touch(long number, Codes codes) {
        return new PathCredit.Touch(number >>> 32, "", (number & ORGANIC) != 0, codes.names().get((int) (number & CHANNEL)));
    }

    private static void read(List<JsonNode> rows, Codes codes, List<MarkovChain.Transition> out, Set<String> tied, Map<String, long[]> paths) {
        for (JsonNode row : rows) {
            for (JsonNode path : row.get("paths")) {
                JsonNode numbers = path.get(2);
                long[] touches = new long[numbers.size()];
                for (int i = 0; i < touches.length; i++) {
                    touches[i] = Long.parseUnsignedLong(numbers.get(i).asText());
                }
                paths.put(Long.toUnsignedString(Long.parseUnsignedLong(path.get(0).asText())) + ":" + path.get(1).asLong(), touches);
            }
            long key = Long.parseUnsignedLong(row.get("t").asText());
            if (row.get("is_tied").asInt() != 0) {
                tied.add(Long.toUnsignedString(key));
                continue;
            }
            long a = key >>> FROM;
            long b = key & CHANNEL;
            out.add(new MarkovChain.Transition(a == START ? null : codes.names().get((int) a),
                    b == CONVERSION || b == NULL ? null : codes.names().get((int) b), b == CONVERSION, row.get("n").asLong()));
        }
    }

    /**
     * The counting statement: rows (t, is_tied, n), t a transition's number counted n times, or with is_tied the
     * key of a tied group. With {@code tied} null: every lead's raw rows, numbers only, grouped by {@code lead_key}
     * (cityHash64 of the lead id); a group whose rows tie, or whose rows name more than one lead (their
     * {@code lead_check}, farmHash64 of the lead id, differ), is named by its key instead of counted. With
     * {@code tied}: only the leads of those keys (every lead when empty), grouped by lead id, their clicks
     * deduplicated (newest version per id) and each number paired with its click id, so that a sort orders them by
     * (time, click id). A transition's converted flag is that of its path; only the last one's matters to the chain
     * (into CONVERSION or NULL), so only it carries the flag.
     */
    private String sql(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, Set<String> tied, Set<Integer> detail) {
        return sql(accountId, codes, p, w, tied, detail, "");
    }

    /** {@code range}: conditions on KEY (lead_key, or cityHash64(lead_id) of a sale), each " AND …". */
    private String sql(String accountId, Codes codes, AttributionQuery.Params p, TouchPaths.Window w, Set<String> tied, Set<Integer> detail,
                       String range) {
        String db = clickHouse.database();
        String acc = ClickHouseSql.str(accountId);
        boolean exact = tied != null;
        String dropped = "is_deleted = 1" + switch (p.sources()) {
            case only_paid -> " OR is_organic = 1";
            case only_organic -> " OR is_organic = 0";
            default -> "";
        } + (p.filters().reportSourceVisibility() ? " OR source_link_tag IN (SELECT tag FROM " + db + ".source_links_current WHERE account_id = "
                + acc + " AND deleted_at IS NOT NULL)" : "");
        String number = "bitOr(bitShiftLeft(toUInt64(toUInt32(click_date)), 32), bitOr(bitShiftLeft(toUInt64(" + dropped + "), 25), "
                + "bitOr(bitShiftLeft(toUInt64(is_organic), 24), " + codes.sql() + ")))";
        String window = "account_id = " + acc + " AND click_date >= " + at(w.clicksFrom()) + " AND click_date <= " + at(w.salesEnd())
                + stageLeads(db, acc, p);
        String clicks;
        String sales = "SELECT lead_id, " + entry(exact, "bitOr(bitShiftLeft(toUInt64(toUInt32(sale_at)), 32), " + SALE + ")", "''")
                + " AS e FROM " + TouchPaths.keptSales(db, accountId, p, w, range.replace("KEY", "cityHash64(lead_id)"), false) + " AS ks";
        String perLead;
        if (exact) {
            String keys = "(" + String.join(", ", tied) + ")";
            String leads = tied.isEmpty() ? "" : " AND lead_key IN " + keys;
            // the newest version of each click (a click's date, platform and ad never change: they are part of the group)
            clicks = "SELECT lead_id, " + entry(true, number, "id") + " AS e FROM (SELECT lead_id, click_date, id, platform, ad, "
                    + "argMax(is_organic, _version) AS is_organic, argMax(source_link_tag, _version) AS source_link_tag, "
                    + "argMax(is_deleted, _version) AS is_deleted FROM " + db + ".clicks_by_lead WHERE " + window + leads
                    + " GROUP BY lead_id, click_date, id, platform, ad) AS dc";
            sales += tied.isEmpty() ? "" : " WHERE cityHash64(lead_id) IN " + keys;
            perLead = "SELECT lead_id AS lk, groupArray(e) AS t, 0 AS collided FROM (" + clicks + " UNION ALL " + sales + ") AS u GROUP BY lk";
        } else {
            clicks = "SELECT lead_key, lead_check, " + number + " AS e FROM " + db + ".clicks_by_lead WHERE " + window
                    + range.replace("KEY", "lead_key");
            sales = "SELECT cityHash64(lead_id) AS lead_key, farmHash64(lead_id) AS lead_check, " + sales.substring("SELECT lead_id, ".length());
            // a number groups far faster than the id; two leads of one key are told apart by the second hash
            perLead = "SELECT lead_key AS lk, groupArray(e) AS t, uniqUpTo(1)(lead_check) > 1 AS collided FROM (" + clicks + " UNION ALL "
                    + sales + ") AS u GROUP BY lk";
        }
        String time = exact ? "toInt64(tupleElement(x, 1))" : "toInt64(bitShiftRight(x, 32))";
        String bits = exact ? "tupleElement(x, 3)" : "x";
        // sorted once: by time, then (exact) click id; the filters below keep that order
        String split = "SELECT lk, collided, arrayFilter(x -> bitAnd(" + bits + ", " + SALE + ") = 0, ts) AS c, arrayFilter(x -> bitAnd(" + bits
                + ", " + SALE + ") != 0, ts) AS s FROM (SELECT lk, collided, arraySort(t) AS ts FROM (" + perLead + ") AS pl) AS so";
        String ties = exact ? "0" : "arrayExists((a, b) -> bitShiftRight(a, 32) = bitShiftRight(b, 32), arrayPopBack(c), arrayPopFront(c))";
        // a lead touching the requested entities: any raw row of the window on one of them (as clicks_by_ad tells)
        String touching = exact || detail.isEmpty() ? "0" : "arrayExists(x -> has([" + detail.stream().sorted().map(String::valueOf)
                .collect(Collectors.joining(", ")) + "], bitAnd(x, " + CHANNEL + ")), c)";
        String kept = "SELECT lk, collided OR " + ties + " AS is_tied, " + touching + " AS touching, notEmpty(s) AS converted, arrayMap(x -> "
                + time + ", s) AS sale_at, arrayFilter(x -> bitAnd(" + bits + ", " + DROPPED + ") = 0, c) AS k FROM (" + split + ") AS sp";
        // one row per path: one per kept sale of the lead, or one non-converting path
        String bounded = "SELECT lk, is_tied, touching, converted, sale_epoch, k, if(converted, sale_epoch - " + w.back() + ", " + w.nonConvertingFrom()
                + ") AS lo_at, if(converted, sale_epoch, " + w.end() + ") AS hi_at FROM (" + kept
                + ") AS kp ARRAY JOIN if(converted, sale_at, [toInt64(0)]) AS sale_epoch";
        // 18.16 drops a subquery column that only a lambda reads ("Unknown identifier"): lo_at / hi_at are also read
        // outside the lambda, up to the query that uses wt (lo_at <= hi_at always holds)
        String windowed = "SELECT lk, is_tied, touching, converted, sale_epoch, lo_at, hi_at, arrayFilter(x -> " + time + " >= lo_at AND " + time
                + " <= hi_at, k) AS wt FROM (" + bounded + ") AS b";
        String preferred = switch (p.sources()) {
            case prioritize_paid -> "= 0";
            case prioritize_organic -> "!= 0";
            default -> null;
        };
        String kind = preferred == null ? "wt" : "if(arrayExists(x -> bitAnd(" + bits + ", " + ORGANIC + ") " + preferred + ", wt), "
                + "arrayFilter(x -> bitAnd(" + bits + ", " + ORGANIC + ") " + preferred + ", wt), wt)";
        String paths = "SELECT lk, is_tied, converted, sale_epoch, arrayMap(x -> bitAnd(" + bits + ", " + CHANNEL + "), " + kind + ") AS ch, "
                + (exact ? "emptyArrayUInt64()" : "if(touching AND converted AND NOT is_tied, wt, emptyArrayUInt64())") + " AS detail FROM ("
                + windowed + ") AS wd WHERE is_tied OR (notEmpty(wt) AND lo_at <= hi_at)";
        // START -> c1 -> ... -> ck -> CONVERSION or NULL, each transition one number; a tied group only its key
        String transitions = "arrayMap((a, b) -> bitOr(bitShiftLeft(a, " + FROM + "), b), arrayConcat([toUInt64(" + START + ")], ch), "
                + "arrayConcat(ch, [toUInt64(if(converted, " + CONVERSION + ", " + NULL + "))]))";
        // the paths returned ride on their first transition's row (from START)
        return "SELECT t, is_tied, count() AS n, groupArrayIf((lk, sale_epoch, detail), notEmpty(detail) AND bitShiftRight(t, " + FROM + ") = "
                + START + ") AS paths FROM (SELECT is_tied, lk, sale_epoch, detail, if(is_tied, " + (exact ? "emptyArrayUInt64()" : "[lk]") + ", "
                + transitions + ") AS tr FROM (" + paths + ") AS pa) AS pt ARRAY JOIN tr AS t GROUP BY t, is_tied";
    }

    /** A path entry: the number alone, or (time, click id, number) so that a sort orders by (time, click id). */
    private static String entry(boolean exact, String number, String id) {
        return exact ? "(toUInt32(bitShiftRight(" + number + ", 32)), " + id + ", " + number + ")" : number;
    }

    private static String at(long epochSecond) {
        return "toDateTime(" + epochSecond + ", 'UTC')";
    }

    private static String stageLeads(String db, String acc, AttributionQuery.Params p) {
        return p.leadStagesLower().isEmpty() ? "" : " AND lead_id IN (SELECT id FROM " + db + ".leads_current WHERE account_id = " + acc
                + " AND lower(stage_name) IN " + ClickHouseSql.strList(p.leadStagesLower()) + ")";
    }
}
