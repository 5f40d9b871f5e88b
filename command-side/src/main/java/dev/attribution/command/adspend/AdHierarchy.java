package dev.attribution.command.adspend;

import dev.attribution.api.AdSourceLevel;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The ad hierarchy the API's own writes register (docs/attribution-models.md, "The ad hierarchy the API writes"): a
 * source with an ad platform ({@code POST /sources}) registers its ad account, campaign, ad set (or its campaign,
 * {@link AdSourceLevel}) and its <em>source entry</em> in {@code ads}; a click ({@code POST /clicks}) registers its ad under the ad
 * set, or the source entry when it names no ad. The rows are those the ad-spend import writes (migration V52), so an
 * import and the API name one entity once: a row is never duplicated, and a blank parent id (a click that came before
 * its source) is filled by whichever write knows it, never overwritten. Writes of one (platform, adSourceId) are
 * serialised by a transaction-scoped advisory lock, so any order of sources and clicks gives the same rows.
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
}
