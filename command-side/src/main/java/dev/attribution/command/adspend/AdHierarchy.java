package dev.attribution.command.adspend;

import dev.attribution.api.AdSourceLevel;
import dev.attribution.command.imports.BatchInsert;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * The ad hierarchy the API's own writes register (docs/attribution-models.md, "The ad hierarchy the API writes"): a
 * source with an ad platform ({@code POST /sources}) registers its ad account, campaign, ad set (or its campaign,
 * {@link AdSourceLevel}) and its <em>source entry</em> in {@code ads}; a click ({@code POST /clicks}) registers its ad under the ad
 * set, or the source entry when it names no ad. The rows are those the ad-spend import writes (migration V52), so an
 * import and the API name one entity once: a row is never duplicated, and a blank parent id (a click that came before
 * its source) is filled by whichever write knows it, never overwritten. Writes of one (platform, adSourceId) are
 * serialised by a transaction-scoped advisory lock, so any order of sources and clicks gives the same rows.
 * <p>
 * The only writer of {@code ad_accounts}, {@code ad_campaigns}, {@code ad_sets} and {@code ads}: the rows an ad-spend
 * file names are created here too ({@link #fromSpendStage}), and the demo seed's ({@link #insertBulk}).
 */
@Singleton
public class AdHierarchy {

    /** Whether {@code adSourceId} is a campaign of the account ({@link AdSourceLevel}, from the rows it already has). */
    private static boolean atCampaign(Connection c, String accountId, String platform, String adSourceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT EXISTS (SELECT 1 FROM ad_sets WHERE account_id = ? AND platform = ? "
                + "AND ad_set_id = ?), EXISTS (SELECT 1 FROM ad_campaigns WHERE account_id = ? AND platform = ? AND campaign_id = ?)")) {
            bind(ps, accountId, platform, adSourceId, accountId, platform, adSourceId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return AdSourceLevel.isCampaign(platform, rs.getBoolean(1), rs.getBoolean(2));
            }
        }
    }

    /**
     * A source of {@code platform} on {@code adSourceId} (spec 4.8): its ad account, its campaign, its ad set (or, where
     * {@code adSourceId} is a campaign, that campaign) and the source entry, named after the source where unnamed; the
     * ads already registered under it get the parents they lacked.
     */
    public void registerSource(Connection c, String accountId, String platform, String adSourceId, String adAccountId,
                               String campaignId, String name) throws SQLException {
        if (platform.isEmpty() || adSourceId.isEmpty()) {
            return;
        }
        lock(c, accountId, platform, adSourceId);
        boolean campaignLevel = atCampaign(c, accountId, platform, adSourceId);
        if (!adAccountId.isEmpty()) {
            update(c, "INSERT INTO ad_accounts (account_id, platform, ad_account_id) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    accountId, platform, adAccountId);
        }
        String campaign = campaignLevel ? adSourceId : campaignId;
        if (!campaign.isEmpty()) {
            update(c, """
                    INSERT INTO ad_campaigns AS t (account_id, platform, campaign_id, ad_account_id, name) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, platform, campaign_id) DO UPDATE SET
                      ad_account_id = CASE WHEN t.ad_account_id = '' THEN EXCLUDED.ad_account_id ELSE t.ad_account_id END,
                      name = CASE WHEN t.name = '' THEN EXCLUDED.name ELSE t.name END
                    WHERE t.ad_account_id = '' AND EXCLUDED.ad_account_id <> '' OR t.name = '' AND EXCLUDED.name <> ''""",
                    accountId, platform, campaign, adAccountId, campaignLevel ? name : "");
        }
        if (!campaignLevel) {
            update(c, """
                    INSERT INTO ad_sets AS t (account_id, platform, ad_set_id, ad_account_id, campaign_id, name) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (account_id, platform, ad_set_id) DO UPDATE SET
                      ad_account_id = CASE WHEN t.ad_account_id = '' THEN EXCLUDED.ad_account_id ELSE t.ad_account_id END,
                      campaign_id = CASE WHEN t.campaign_id = '' THEN EXCLUDED.campaign_id ELSE t.campaign_id END,
                      name = CASE WHEN t.name = '' THEN EXCLUDED.name ELSE t.name END
                    WHERE t.ad_account_id = '' AND EXCLUDED.ad_account_id <> '' OR t.campaign_id = '' AND EXCLUDED.campaign_id <> ''
                       OR t.name = '' AND EXCLUDED.name <> ''""",
                    accountId, platform, adSourceId, adAccountId, campaignId, name);
        }
        upsertAd(c, accountId, platform, adSourceId, adAccountId, campaign, campaignLevel ? "" : adSourceId, name, true);
        // ads registered under the source before it existed (clicks first) take its parents
        update(c, "UPDATE ads SET ad_account_id = CASE WHEN ad_account_id = '' THEN ? ELSE ad_account_id END, "
                        + "campaign_id = CASE WHEN campaign_id = '' THEN ? ELSE campaign_id END "
                        + "WHERE account_id = ? AND platform = ? AND " + (campaignLevel ? "campaign_id" : "ad_set_id") + " = ? "
                        + "AND (ad_account_id = '' AND ? <> '' OR campaign_id = '' AND ? <> '')",
                adAccountId, campaign, accountId, platform, adSourceId, adAccountId, campaign);
    }

    /**
     * A click of {@code platform} on {@code adSourceId} with ad {@code adId} (blank: none): the ad under the ad set
     * (or campaign), or the source entry of {@code adSourceId}; the ad set or campaign is registered when
     * absent. Parents come from the ad set / campaign row (which a source or an import fills); a click of an ad
     * already registered with its parents writes nothing.
     */
    public void registerClick(Connection c, String accountId, String platform, String adSourceId, String adId)
            throws SQLException {
        if (platform == null || platform.isEmpty() || adSourceId == null || adSourceId.isEmpty()) {
            return;
        }
        boolean entry = adId == null || adId.isEmpty();
        String ad = entry ? adSourceId : adId;
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM ads WHERE account_id = ? AND platform = ? AND ad_id = ? "
                + "AND ad_account_id <> '' AND (campaign_id <> '' OR ad_set_id <> '')")) {
            bind(ps, accountId, platform, ad);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return;
                }
            }
        }
        lock(c, accountId, platform, adSourceId);
        boolean campaignLevel = atCampaign(c, accountId, platform, adSourceId);
        String parentTable = campaignLevel ? "ad_campaigns" : "ad_sets";
        String parentColumn = campaignLevel ? "campaign_id" : "ad_set_id";
        update(c, "INSERT INTO " + parentTable + " (account_id, platform, " + parentColumn + ", ad_account_id) VALUES (?, ?, ?, '') "
                + "ON CONFLICT DO NOTHING", accountId, platform, adSourceId);
        String adAccountId = "";
        String campaignId = campaignLevel ? adSourceId : "";
        try (PreparedStatement ps = c.prepareStatement("SELECT ad_account_id, " + (campaignLevel ? "''" : "campaign_id")
                + " FROM " + parentTable + " WHERE account_id = ? AND platform = ? AND " + parentColumn + " = ?")) {
            bind(ps, accountId, platform, adSourceId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    adAccountId = rs.getString(1);
                    campaignId = campaignLevel ? adSourceId : rs.getString(2);
                }
            }
        }
        upsertAd(c, accountId, platform, ad, adAccountId, campaignId, campaignLevel ? "" : adSourceId, "", entry);
    }

    /** An ad or source entry, created or given the parents and name it lacked (set values are never overwritten). */
    private static void upsertAd(Connection c, String accountId, String platform, String adId, String adAccountId,
                                 String campaignId, String adSetId, String name, boolean sourceLevel) throws SQLException {
        update(c, """
                INSERT INTO ads AS t (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name, source_level)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (account_id, platform, ad_id) DO UPDATE SET
                  ad_account_id = CASE WHEN t.ad_account_id = '' THEN EXCLUDED.ad_account_id ELSE t.ad_account_id END,
                  campaign_id = CASE WHEN t.campaign_id = '' THEN EXCLUDED.campaign_id ELSE t.campaign_id END,
                  ad_set_id = CASE WHEN t.ad_set_id = '' THEN EXCLUDED.ad_set_id ELSE t.ad_set_id END,
                  name = CASE WHEN t.name = '' THEN EXCLUDED.name ELSE t.name END,
                  source_level = t.source_level OR EXCLUDED.source_level
                WHERE t.ad_account_id = '' AND EXCLUDED.ad_account_id <> '' OR t.campaign_id = '' AND EXCLUDED.campaign_id <> ''
                   OR t.ad_set_id = '' AND EXCLUDED.ad_set_id <> '' OR t.name = '' AND EXCLUDED.name <> ''
                   OR EXCLUDED.source_level AND NOT t.source_level""",
                accountId, platform, adId, adAccountId, campaignId, adSetId, name, sourceLevel);
    }

    private static void lock(Connection c, String accountId, String platform, String adSourceId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT pg_advisory_xact_lock(hashtext('ad-hierarchy:' || ? || ':' || ? || ':' || ?))")) {
            bind(ps, accountId, platform, adSourceId);
            ps.execute();
        }
    }

    private static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, args);
            ps.executeUpdate();
        }
    }

    private static void bind(PreparedStatement ps, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            ps.setObject(i + 1, args[i]);
        }
    }

    /**
     * A row of the hierarchy written whole (the demo seed's), at its level: an ad account ({@code campaignId} and below
     * null), a campaign ({@code adSetId} null), an ad set ({@code adId} null), an ad, or a source entry (an ad row
     * standing for a source, {@code sourceLevel}).
     */
    public record Bulk(String accountId, String platform, String adAccountId, String campaignId, String adSetId, String adId,
                       String name, boolean sourceLevel, Instant createdAt) {
    }

    /** Inserts hierarchy rows in one batch per table, parents first (the demo seed). */
    public static void insertBulk(Connection c, List<Bulk> rows) throws SQLException {
        BatchInsert.run(c, "INSERT INTO ad_accounts (account_id, platform, ad_account_id, name, created_at) VALUES (?, ?, ?, ?, ?)",
                rows.stream().filter(r -> r.campaignId() == null).toList(),
                r -> new Object[]{r.accountId(), r.platform(), r.adAccountId(), r.name(), r.createdAt()});
        BatchInsert.run(c, "INSERT INTO ad_campaigns (account_id, platform, campaign_id, ad_account_id, name, created_at) "
                + "VALUES (?, ?, ?, ?, ?, ?)", rows.stream().filter(r -> r.campaignId() != null && r.adSetId() == null).toList(),
                r -> new Object[]{r.accountId(), r.platform(), r.campaignId(), r.adAccountId(), r.name(), r.createdAt()});
        BatchInsert.run(c, "INSERT INTO ad_sets (account_id, platform, ad_set_id, ad_account_id, campaign_id, name, created_at) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)", rows.stream().filter(r -> r.adSetId() != null && r.adId() == null).toList(),
                r -> new Object[]{r.accountId(), r.platform(), r.adSetId(), r.adAccountId(), r.campaignId(), r.name(), r.createdAt()});
        BatchInsert.run(c, "INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name, created_at, "
                + "source_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows.stream().filter(r -> r.adId() != null).toList(),
                r -> new Object[]{r.accountId(), r.platform(), r.adId(), r.adAccountId(), r.campaignId(), r.adSetId(), r.name(),
                        r.createdAt(), r.sourceLevel()});
    }

    /**
     * The hierarchy rows an ad-spend file names ({@link SpendImport}: its ads, in the temporary table
     * {@code spend_stage_ads}), created when absent; rows the API registered first get the parents they lack. Returns
     * the ad accounts, campaigns, ad sets and ads created.
     */
    static long[] fromSpendStage(Connection c, String accountId) throws SQLException {
        long adAccounts = exec(c, accountId, """
                INSERT INTO ad_accounts (account_id, platform, ad_account_id)
                SELECT DISTINCT ?, platform, ad_account_id FROM spend_stage_ads ON CONFLICT DO NOTHING""");
        long campaigns = exec(c, accountId, """
                INSERT INTO ad_campaigns (account_id, platform, campaign_id, ad_account_id)
                SELECT DISTINCT ON (platform, campaign_id) ?, platform, campaign_id, ad_account_id FROM spend_stage_ads
                WHERE campaign_id <> '' ORDER BY platform, campaign_id ON CONFLICT DO NOTHING""");
        long adSets = exec(c, accountId, """
                INSERT INTO ad_sets (account_id, platform, ad_set_id, ad_account_id, campaign_id)
                SELECT DISTINCT ON (platform, ad_set_id) ?, platform, ad_set_id, ad_account_id, campaign_id FROM spend_stage_ads
                WHERE ad_set_id <> '' ORDER BY platform, ad_set_id ON CONFLICT DO NOTHING""");
        long ads = exec(c, accountId, """
                INSERT INTO ads (account_id, platform, ad_id, ad_account_id, campaign_id, ad_set_id, name)
                SELECT ?, platform, ad_id, ad_account_id, campaign_id, ad_set_id, ad_name FROM spend_stage_ads
                ON CONFLICT DO NOTHING""");
        // rows the API registered first (a click before its source, docs/attribution-models.md) get the parents they lack
        exec(c, accountId, """
                UPDATE ad_campaigns t SET ad_account_id = s.ad_account_id
                FROM (SELECT DISTINCT ON (platform, campaign_id) platform, campaign_id, ad_account_id FROM spend_stage_ads
                      WHERE campaign_id <> '' ORDER BY platform, campaign_id) s
                WHERE t.account_id = ? AND t.platform = s.platform AND t.campaign_id = s.campaign_id AND t.ad_account_id = ''""");
        exec(c, accountId, """
                UPDATE ad_sets t SET ad_account_id = CASE WHEN t.ad_account_id = '' THEN s.ad_account_id ELSE t.ad_account_id END,
                    campaign_id = CASE WHEN t.campaign_id = '' THEN s.campaign_id ELSE t.campaign_id END
                FROM (SELECT DISTINCT ON (platform, ad_set_id) platform, ad_set_id, ad_account_id, campaign_id FROM spend_stage_ads
                      WHERE ad_set_id <> '' ORDER BY platform, ad_set_id) s
                WHERE t.account_id = ? AND t.platform = s.platform AND t.ad_set_id = s.ad_set_id
                  AND (t.ad_account_id = '' OR t.campaign_id = '' AND s.campaign_id <> '')""");
        exec(c, accountId, """
                UPDATE ads t SET ad_account_id = CASE WHEN t.ad_account_id = '' THEN s.ad_account_id ELSE t.ad_account_id END,
                    campaign_id = CASE WHEN t.campaign_id = '' THEN s.campaign_id ELSE t.campaign_id END,
                    ad_set_id = CASE WHEN t.ad_set_id = '' THEN s.ad_set_id ELSE t.ad_set_id END,
                    name = CASE WHEN t.name = '' THEN s.ad_name ELSE t.name END
                FROM spend_stage_ads s
                WHERE t.account_id = ? AND t.platform = s.platform AND t.ad_id = s.ad_id
                  AND (t.ad_account_id = '' OR t.campaign_id = '' AND s.campaign_id <> '' OR t.ad_set_id = '' AND s.ad_set_id <> ''
                       OR t.name = '' AND s.ad_name <> '')""");
        // the other ads of the file's ad sets (a click's ad or source entry the file does not name) take their ad
        // set's parents too, as AdHierarchy.registerSource does: so the rows do not depend on the order of writes
        exec(c, accountId, """
                UPDATE ads t SET ad_account_id = CASE WHEN t.ad_account_id = '' THEN a.ad_account_id ELSE t.ad_account_id END,
                    campaign_id = CASE WHEN t.campaign_id = '' THEN a.campaign_id ELSE t.campaign_id END
                FROM ad_sets a
                WHERE t.account_id = ? AND a.account_id = t.account_id AND a.platform = t.platform AND a.ad_set_id = t.ad_set_id
                  AND (a.platform, a.ad_set_id) IN (SELECT platform, ad_set_id FROM spend_stage_ads WHERE ad_set_id <> '')
                  AND (t.ad_account_id = '' AND a.ad_account_id <> '' OR t.campaign_id = '' AND a.campaign_id <> '')""");
        return new long[]{adAccounts, campaigns, adSets, ads};
    }

    private static long exec(Connection c, String accountId, String sql) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, accountId);
            return ps.executeLargeUpdate();
        }
    }
}
