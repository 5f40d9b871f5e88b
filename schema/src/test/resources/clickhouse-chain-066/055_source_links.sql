-- Sources (tracked links, spec 2.13) as streamed from PostgreSQL `source_links`. A dimension: no partitions.
-- Sort key (account_id, id) is the PostgreSQL key and the dedup key. The _current view keeps soft-deleted sources
-- (deleted_at set) because past attribution still names them; reports that must hide them filter deleted_at.
CREATE TABLE IF NOT EXISTS {db}.source_links (
    account_id        String,
    id                String,
    tag               String,
    name              String,
    category_id       Nullable(Int64),
    goal_id           Nullable(Int64),
    traffic_source_id Nullable(Int64),
    disregarded       UInt8,
    organic           UInt8,
    platform          String,
    ad_source_id      String,
    ad_account_id     String,
    adspend_sub_type  String,
    campaign_id       String,
    created_at        DateTime('UTC'),
    updated_at        DateTime('UTC'),
    deleted_at        Nullable(DateTime('UTC')),
    _version          UInt64,
    is_deleted        UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, id);

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
