-- The current clicks rows: newest _version per key, keys whose newest version is a delete left out (CurrentRow).
CREATE VIEW IF NOT EXISTS {db}.clicks_current AS
SELECT
    account_id,
    id,
    argMax(lead_id, _version)            AS lead_id,
    argMax(click_date, _version)         AS click_date,
    argMax(tracked_url, _version)        AS tracked_url,
    argMax(source_link_tag, _version)    AS source_link_tag,
    argMax(is_organic, _version)         AS is_organic,
    argMax(integration_type, _version)   AS integration_type,
    argMax(ad_source_id, _version)       AS ad_source_id,
    argMax(adspend_ad_id, _version)      AS adspend_ad_id,
    argMax(ad_source_click_id, _version) AS ad_source_click_id,
    max(_version) AS last_version
FROM {db}.clicks
GROUP BY account_id, id
HAVING argMax(is_deleted, _version) = 0;
