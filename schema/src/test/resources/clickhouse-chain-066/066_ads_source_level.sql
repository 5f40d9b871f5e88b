-- ads gains source_level (PostgreSQL V97): 1 for a source entry, the row that stands for a source's own level (its
-- ad set / ad group / ad squad, or its campaign on LinkedIn) with ad_id = the source's adSourceId; 0 for an ad.
-- Reports treat both alike (a click without an ad id is credited to the entry, custom costs are allocated to it);
-- BI tools counting ads filter source_level = 0. ads_current is defined again with the column (same columns
-- otherwise, as 054 defined them).
ALTER TABLE {db}.ads ADD COLUMN source_level UInt8 DEFAULT 0;

DROP TABLE IF EXISTS {db}.ads_current;

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
