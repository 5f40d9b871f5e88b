package dev.attribution.query.attribution.clickhouse;

import dev.attribution.clickhouse.CurrentRow;

import java.time.LocalDate;

/**
 * The one owner of reading current ad spend from {@code ad_spend_daily} (050_ad_spend_daily.sql): the rows of
 * {@code ad_spend_daily_current} (same dedup rule, same names) of the days in a range. The day is part of the key,
 * so the raw versions are filtered by it before the dedup and only the range's days are read, not the account's
 * whole spend history.
 */
public final class SpendDays {

    private SpendDays() {
    }

    /**
     * {@code account_id, platform, ad_id, day, ad_account_id, campaign_id, ad_set_id, spend, reported_conversions,
     * reported_revenue} of the account's live spend rows of the days in [from, to].
     */
    public static Select between(String db, String accountId, LocalDate from, LocalDate to) {
        return Select.of("account_id", "platform", "ad_id", "day", CurrentRow.latest("ad_account_id", "ad_account_id"),
                        CurrentRow.latest("campaign_id", "campaign_id"), CurrentRow.latest("ad_set_id", "ad_set_id"), CurrentRow.latest("spend", "spend"),
                        CurrentRow.latest("reported_conversions", "reported_conversions"), CurrentRow.latest("reported_revenue", "reported_revenue"))
                .from(db + ".ad_spend_daily").where(Sql.eq("account_id", accountId), Sql.between("day", from, to))
                .groupBy("account_id", "platform", "ad_id", "day").having(CurrentRow.live());
    }
}
