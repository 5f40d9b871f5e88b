-- Ads (spec 2.13, GET /ads) as streamed from PostgreSQL. A dimension: no partitions; the sort key is the
-- PostgreSQL key, which is also the dedup key of the _current view.
CREATE TABLE IF NOT EXISTS {db}.ads (
    account_id     String,
    platform       String,
    ad_id          String,
    ad_account_id  String,
    campaign_id    String,
    ad_set_id      String,
    name           String,
    created_at     DateTime('UTC'),
    _version       UInt64,
    is_deleted     UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, platform, ad_id);

CREATE VIEW IF NOT EXISTS {db}.ads_current AS
SELECT
    account_id,
    platform,
    ad_id,
    argMax(ad_account_id, _version) AS ad_account_id,
    argMax(campaign_id, _version)   AS campaign_id,
    argMax(ad_set_id, _version)     AS ad_set_id,
    argMax(name, _version)          AS name,
    argMax(created_at, _version)    AS created_at,
    max(_version) AS last_version
FROM {db}.ads
GROUP BY account_id, platform, ad_id
HAVING argMax(is_deleted, _version) = 0;
