package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one owner of reading current clicks from {@code clicks} (030_clicks.sql): the rows of {@code clicks_current}
 * (same dedup rule, same column names) among the clicks whose raw versions match a condition, which must select
 * every version of a click it selects one of: a condition on click date, platform or ad ids (written once by
 * POST /clicks, never updated) or on the id. Deduplicating only those clicks keeps reports from reading the
 * account's whole history. The clicks by ad and by lead are {@link ClicksByAd} and {@link ClicksByLead}.
 */
public final class CurrentClicks {

    /** The columns of {@code clicks_current} (the same names as the raw columns). */
    public enum Column {
        LEAD_ID, CLICK_DATE, TRACKED_URL, SOURCE_LINK_TAG, IS_ORGANIC, INTEGRATION_TYPE, AD_SOURCE_ID, ADSPEND_AD_ID, AD_SOURCE_CLICK_ID;

        public String sql() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The columns every attribution path reads: lead, date, kind and the click's ad (platform, ad ids). */
    public static final Set<Column> PATH = Set.of(Column.LEAD_ID, Column.CLICK_DATE, Column.IS_ORGANIC, Column.INTEGRATION_TYPE,
            Column.AD_SOURCE_ID, Column.ADSPEND_AD_ID);

    private CurrentClicks() {
    }

    /**
     * The current rows ({@code account_id, id} and {@code columns}, in {@link Column} order) of the account's clicks
     * whose raw versions match {@code rawWhere}, deduplicated by id: grouped by hashing the ids, cheapest when
     * {@code rawWhere} keeps a small part of what it reads (an id list). The raw columns are renamed by a subquery,
     * so that {@code rawWhere} never meets an aggregate of the same name.
     */
    public static Select matching(String db, String accountId, String rawWhere, Set<Column> columns) {
        List<String> names = names(columns);
        List<String> current = new ArrayList<>();
        names.forEach(c -> current.add(CurrentRow.latest(c, c)));
        Select raw = Select.of("account_id", "id", "_version", "is_deleted").columns(names).from(db + ".clicks")
                .where(Sql.eq("account_id", accountId), rawWhere);
        return Select.of("account_id", "id").columns(current).from(raw, "raw").groupBy("account_id", "id").having(CurrentRow.live());
    }

    /**
     * {@link #matching}'s rows by a sorted merge ({@code FINAL}), which keeps each click's version of the highest
     * {@code _version} as the argMax does: FINAL merges within a partition, and every version of a click is in the
     * partition of its click date, which never changes; the deleted filter is applied after the merge (outside the
     * subquery). A sorted merge costs less than hashing every click id when {@code rawWhere} keeps most of the rows
     * it reads (a whole window) (docs/BENCHMARKS.md).
     */
    public static Select merged(String db, String accountId, String rawWhere, Set<Column> columns) {
        List<String> list = new ArrayList<>(List.of("account_id", "id"));
        list.addAll(names(columns));
        Select finalRows = Select.of(list.toArray(String[]::new)).columns("is_deleted").from(db + ".clicks FINAL")
                .where(Sql.eq("account_id", accountId), rawWhere);
        return Select.of(list.toArray(String[]::new)).from(finalRows, "fc").where("is_deleted = 0");
    }

    /** The raw versions' click ids of the account matching {@code rawWhere} (no dedup: a superset of the current clicks'). */
    public static Select rawIds(String db, String accountId, String rawWhere) {
        return Select.of("id").from(db + ".clicks").where(Sql.eq("account_id", accountId), rawWhere);
    }

    private static List<String> names(Set<Column> columns) {
        List<String> names = new ArrayList<>();
        for (Column c : Column.values()) {
            if (columns.contains(c)) {
                names.add(c.sql());
            }
        }
        return names;
    }
}
