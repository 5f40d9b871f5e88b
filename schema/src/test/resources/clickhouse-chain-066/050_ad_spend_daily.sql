-- Daily ad spend as streamed from PostgreSQL `ad_spend_daily` (spend import, docs/ad-spend-import.md): one row per
-- ad and day; a re-import changes the row, so the row with the highest _version is the current one.
-- Sort key (account_id, platform, ad_id, day) is the PostgreSQL key: reports filter one account and a day range,
-- and dedup is by that key. Partitioned by the spend month: a row's day never changes (it is part of the key).
CREATE TABLE IF NOT EXISTS {db}.ad_spend_daily (
    account_id            String,
    platform              String,
    ad_id                 String,
    day                   Date,
    ad_account_id         String,
    campaign_id           String,
    ad_set_id             String,
    spend                 Decimal(18, 2),
    impressions           Int64,
    clicks                Int64,
    video_views           Int64,
    reported_conversions  Decimal(18, 2),
    reported_revenue      Decimal(18, 2),
    currency              String,
    updated_at            DateTime('UTC'),
    _version              UInt64,
    is_deleted            UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(day)
ORDER BY (account_id, platform, ad_id, day);

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
