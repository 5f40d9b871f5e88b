package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

/**
 * The one owner of deduplicating {@code clicks_by_lead} (064_clicks_by_lead.sql, 065 adds {@code ad_key}): the
 * clicks that name a lead, laid out by (lead_key, lead, date, id). A click's date and ad never change and its lead is
 * set once, so the versions of a click share (lead, date, id, ad_key) and are grouped by them; the newest version
 * holds its kind and source tag, and whether it is deleted.
 */
public final class ClicksByLead {

    private ClicksByLead() {
    }

    /**
     * The newest version of each click of the account whose raw rows match {@code where} (and {@code prewhere}, read
     * first; either may be blank): {@code keys} (raw columns among lead_id, click_date, id, ad_key, account_id, or
     * names of them such as {@code id AS click_id}) grouped by {@code groupBy}, with {@code is_organic},
     * {@code source_link_tag} and, as {@code deletedAlias}, whether that version deletes the click. The deleted
     * clicks are kept (flagged) so that a caller counting raw rows and this one agree on every other row.
     */
    public static Select newest(String db, String accountId, String prewhere, String where, String keys, String groupBy, String deletedAlias) {
        return Select.of(keys, CurrentRow.latest("is_organic", "is_organic"), CurrentRow.latest("source_link_tag", "source_link_tag"),
                        CurrentRow.latest("is_deleted", deletedAlias))
                .from(db + ".clicks_by_lead").prewhere(prewhere).where(Sql.eq("account_id", accountId), where).groupBy(groupBy);
    }
}
