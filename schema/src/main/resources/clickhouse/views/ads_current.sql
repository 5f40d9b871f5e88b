-- The current ads and source entries (source_level since 066).
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
    argMax(source_level, _version)  AS source_level,
    max(_version) AS last_version
FROM {db}.ads
GROUP BY account_id, platform, ad_id
HAVING argMax(is_deleted, _version) = 0;
