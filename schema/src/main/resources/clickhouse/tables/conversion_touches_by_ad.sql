-- An index of `conversion_touches` by ad: for every version of every conversion's projection row, one row per
-- click it holds (last paid, last organic, first paid, first organic) that has an ad, copied on insert by the
-- materialized view conversion_touches_by_ad_feed; sorted by (account_id, conversion_type, ad, platform,
-- conversion_at) so that a report over a few ads finds the conversions that may be credited to them without
-- deduplicating the range's whole projection. It only narrows: the credited click is still read from
-- conversion_touches (newest version), so an old version's ad here can add a candidate but never change a figure.
CREATE TABLE IF NOT EXISTS {db}.conversion_touches_by_ad (
    account_id       String,
    conversion_type  String,
    ad               String,
    platform         String,
    conversion_at    DateTime('UTC'),
    conversion_id    String,
    lead_id          String,
    _version         UInt64,
    is_deleted       UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(conversion_at)
ORDER BY (account_id, conversion_type, ad, platform, conversion_at, conversion_id)
-- small granules: a report reads a few ads' key ranges, so less is read past each range's ends
SETTINGS index_granularity = 1024;
