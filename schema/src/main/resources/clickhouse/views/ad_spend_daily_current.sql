-- Current daily spend: the dedup rule every cost, CAC and ROAS report uses.
CREATE VIEW IF NOT EXISTS {db}.ad_spend_daily_current AS
SELECT
    account_id,
    platform,
    ad_id,
    day,
    argMax(ad_account_id, _version)        AS ad_account_id,
    argMax(campaign_id, _version)          AS campaign_id,
    argMax(ad_set_id, _version)            AS ad_set_id,
    argMax(spend, _version)                AS spend,
    argMax(impressions, _version)          AS impressions,
    argMax(clicks, _version)               AS clicks,
    argMax(video_views, _version)          AS video_views,
    argMax(reported_conversions, _version) AS reported_conversions,
    argMax(reported_revenue, _version)     AS reported_revenue,
    argMax(currency, _version)             AS currency,
    max(_version) AS last_version
FROM {db}.ad_spend_daily
GROUP BY account_id, platform, ad_id, day
HAVING argMax(is_deleted, _version) = 0;
