-- Ad accounts (spec 2.6, GET /ad-accounts) as streamed from PostgreSQL. A dimension: no partitions; the sort key
-- is the PostgreSQL key, which is also the dedup key of the _current view.
CREATE TABLE IF NOT EXISTS {db}.ad_accounts (
    account_id     String,
    platform       String,
    ad_account_id  String,
    name           String,
    created_at     DateTime('UTC'),
    _version       UInt64,
    is_deleted     UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, platform, ad_account_id);
