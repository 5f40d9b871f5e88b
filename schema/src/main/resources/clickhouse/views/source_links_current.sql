-- The current source_links rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.source_links_current AS
SELECT
    account_id,
    id,
    argMax(tag, _version)               AS tag,
    argMax(name, _version)              AS name,
    argMax(category_id, _version)       AS category_id,
    argMax(goal_id, _version)           AS goal_id,
    argMax(traffic_source_id, _version) AS traffic_source_id,
    argMax(disregarded, _version)       AS disregarded,
    argMax(organic, _version)           AS organic,
    argMax(platform, _version)          AS platform,
    argMax(ad_source_id, _version)      AS ad_source_id,
    argMax(ad_account_id, _version)     AS ad_account_id,
    argMax(adspend_sub_type, _version)  AS adspend_sub_type,
    argMax(campaign_id, _version)       AS campaign_id,
    argMax(created_at, _version)        AS created_at,
    argMax(deleted_at, _version)        AS deleted_at,
    max(_version) AS last_version
FROM {db}.source_links
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
