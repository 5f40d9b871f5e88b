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
