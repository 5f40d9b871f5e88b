-- Ad sets / ad groups / ad squads (spec 2.17) as streamed from PostgreSQL. A dimension: no partitions; the
-- sort key is the PostgreSQL key, which is also the dedup key of the _current view.
CREATE TABLE IF NOT EXISTS {db}.ad_sets (
    account_id     String,
    platform       String,
    ad_set_id      String,
    ad_account_id  String,
    campaign_id    String,
    name           String,
    created_at     DateTime('UTC'),
    _version       UInt64,
    is_deleted     UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, platform, ad_set_id);
