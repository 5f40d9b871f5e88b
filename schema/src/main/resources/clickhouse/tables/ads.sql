-- Ads (spec 2.13, GET /ads) as streamed from PostgreSQL. A dimension: no partitions; the sort key is the
-- PostgreSQL key, which is also the dedup key of the _current view.
-- source_level (PostgreSQL V97, added by 066): 1 for a source entry, the row that stands for a source's own level (its
-- ad set / ad group / ad squad, or its campaign on LinkedIn) with ad_id = the source's adSourceId; 0 for an ad.
-- Reports treat both alike; BI tools counting ads filter source_level = 0.
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
    is_deleted     UInt8,
    source_level   UInt8 DEFAULT 0
) ENGINE = {{ReplacingMergeTree(_version)}}
ORDER BY (account_id, platform, ad_id);
