package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

import java.time.Instant;

/**
 * The one owner of reading {@code clicks_by_ad} (062_clicks_by_ad.sql): every version of every click sorted by
 * (account, ad, platform, click date, id), so only the scope's ads' clicks of a range are read and deduplicated —
 * exact because a click's date, platform and ad ids are written once (POST /clicks; later updates set its lead,
 * source tag or kind): the sort key holds one click per id, and the dedup rule is that of {@code clicks_current}.
 */
public final class ClicksByAd {

    private ClicksByAd() {
    }

    /**
     * The current clicks dated in [start, end] whose ad is one of {@code scope}: {@code id, lead_id, click_date,
     * source_link_tag, is_organic, attributed_platform, attributed_ad}. The account is fixed by the WHERE, so it is no
     * group key (one string key less to hash: ~20 % of the statement).
     */
    public static Select current(String db, String accountId, ScopeAds scope, Instant start, Instant end) {
        return current(db, accountId, scope, start, end, true, true);
    }

    /**
     * {@link #current(String, String, ScopeAds, Instant, Instant)} with {@code source_link_tag} only when {@code tag}
     * and {@code is_organic} only when {@code organic}: ClickHouse 18.16 computes every aggregate of a subquery, read
     * or not, so a caller that filters on neither does not pay for their dedup.
     */
    public static Select current(String db, String accountId, ScopeAds scope, Instant start, Instant end, boolean tag, boolean organic) {
        return Select.of("id", CurrentRow.latest("lead_id", "lead_id"), "click_date",
                        tag ? CurrentRow.latest("source_link_tag", "source_link_tag") : "",
                        organic ? CurrentRow.latest("is_organic", "is_organic") : "", "platform AS attributed_platform", "ad AS attributed_ad")
                .from(db + ".clicks_by_ad")
                .where(Sql.eq("account_id", accountId), scope.condition("ad", "platform"), Sql.between("click_date", start, end))
                .groupBy("ad", "platform", "click_date", "id").having(CurrentRow.live());
    }

    /**
     * Leads and clicks per row key ({@code rowKey}, an expression of {@code ad}, {@code platform} and {@code click_date})
     * of the scope's clicks dated in [start, end] that have a lead, matching {@code conditions} (on those columns or
     * {@code lead_id}): {@code row_key, n_leads, n_clicks, n_click_leads}, distinct values counted by their hash
     * ({@link #key}). Counted over every version of the live
     * clicks, without grouping by click, and aggregated straight from the table (ClickHouse 18.16 aggregates the rows
     * of a subquery on one thread): about half the CPU and wall time of the same counts over {@link #current} at 1 M
     * leads (docs/BENCHMARKS.md "Leads and clicks counted over the clicks' versions"). Exact by what the write side does
     * to a click, and only for counts of distinct clicks and leads:
     * <ul>
     *   <li>its date, platform and ad are written once (as for {@link #current});</li>
     *   <li>its lead is set at most once, from none to a lead (POST /clicks, or {@code ClicksTable.connectUnassigned}
     *       for an unassigned click), so every version of it that names a lead names its current lead. The counts
     *       check it: a row where {@code n_click_leads != n_clicks} holds a click whose lead changed, and must be
     *       counted again over {@link #current} with {@link #CURRENT_COUNTS};</li>
     *   <li>a deleted click never comes back (its id is the server's, never reused): a click with a delete version that
     *       names a lead is left out whole. A delete carries the row's last values: one without a lead is of a click that
     *       never had one (the 90-day purge of unassigned clicks), which {@code lead_id != ''} leaves out anyway, so the
     *       set to leave out holds only the clicks of erased leads (which the erasure then removes).</li>
     * </ul>
     * Its {@code is_organic} and {@code source_link_tag} do change (PUT /sources): a filter on them needs {@link #current}.
     */
    public static Select assignedCounts(String db, String accountId, ScopeAds scope, Instant start, Instant end, String rowKey,
                                        String... conditions) {
        // the counted rows and the deletes looked up: the same clicks (account, scope's ads, range, with a lead)
        String[] scopeRange = {Sql.eq("account_id", accountId), scope.condition("ad", "platform"), Sql.between("click_date", start, end),
                "lead_id != ''"};
        Select deleted = Select.of("id").from(db + ".clicks_by_ad").prewhere("is_deleted = 1").where(scopeRange);
        return Select.of(rowKey + " AS row_key", "uniqExact(" + key("lead_id") + ") AS n_leads", "uniqExact(" + key("id") + ") AS n_clicks",
                        "uniqExact(" + key("id, lead_id") + ") AS n_click_leads")
                .from(db + ".clicks_by_ad")
                .where(scopeRange).where("id NOT IN " + deleted.parenthesized())
                .where(conditions).groupBy("row_key");
    }

    /**
     * What {@link #assignedCounts} counts distinct values of: a 64-bit CityHash of the strings, not the strings
     * ({@code uniqExact} of a string hashes it with SipHash-128 and keeps 16 bytes per value: about a third of the
     * statement's CPU more at 1 M leads, docs/BENCHMARKS.md "The clicks and sales statements of last_click, lighter").
     * Two different values of one row key would have to share the hash to be counted once: about n² / 2^65 for n
     * values, 7e-13 for a row of 5,000 leads, 3e-8 for a row of a million clicks.
     */
    private static String key(String columns) {
        return "cityHash64(" + columns + ")";
    }

    /** {@link #assignedCounts}'s columns over {@link #current}'s rows (one per click, with its current lead). */
    public static final String CURRENT_COUNTS = "uniqExact(lead_id) AS n_leads, count() AS n_clicks, count() AS n_click_leads";

    /**
     * The leads of every raw version of the scope's clicks matching {@code rawWhere} (no dedup): a click's current
     * version names its current lead, so this is a superset of the current clicks' leads.
     */
    public static Select rawLeads(String db, String accountId, ScopeAds scope, String rawWhere) {
        return Select.of("lead_id").from(db + ".clicks_by_ad").where(Sql.eq("account_id", accountId), rawWhere, scope.condition("ad", "platform"));
    }
}
