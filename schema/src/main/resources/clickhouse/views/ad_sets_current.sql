-- The current ad_sets rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.ad_sets_current AS
SELECT
    account_id,
    platform,
    ad_set_id,
    argMax(ad_account_id, _version) AS ad_account_id,
    argMax(campaign_id, _version)   AS campaign_id,
    argMax(name, _version)          AS name,
    argMax(created_at, _version)    AS created_at,
    max(_version) AS last_version
FROM {db}.ad_sets
GROUP BY account_id, platform, ad_set_id
HAVING argMax(is_deleted, _version) = 0;
