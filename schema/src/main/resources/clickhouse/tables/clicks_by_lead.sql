-- The clicks of `clicks` that name a lead, laid out by lead for the scientific model's touch paths: every version of
-- every such click, copied on insert by the materialized view clicks_by_lead_feed_v2, sorted by
-- (account_id, lead_key, lead_id, click_date, id) with only the columns a path needs, so a report groups the window's clicks
-- per lead from a narrow table (clicks itself is wide and sorted by click id) and reads a few leads' clicks by key.
-- A click's date, platform and ad ids are written once; its lead goes from '' to one lead once and never moves (a
-- delete's version carries the lead: REPLICA IDENTITY FULL), so the versions of a click with a lead share one key
-- and the dedup rule is that of clicks: newest _version per id, dropped when is_deleted. Versions without a lead are
-- not copied (no path holds them). `cdc resync --table clicks` rebuilds this table's rows of the resynced range too;
-- erasure treats it as a lead table. lead_key and lead_check are two independent 64-bit hashes of lead_id, kept so
-- that a report groups and filters the window's rows by a number instead of the id, and (lead_key first in the key)
-- counts the leads of two key ranges at once, each range read alone (docs/attribution-models.md).
-- ad_key = cityHash64(platform, ad) (added by 065): the scientific chain reads and looks up one number per click
-- instead of the two strings (docs/BENCHMARKS.md).
CREATE TABLE IF NOT EXISTS {db}.clicks_by_lead (
    account_id       String,
    lead_id          String,
    lead_key         UInt64,
    lead_check       UInt64,
    click_date       DateTime('UTC'),
    id               String,
    platform         String,
    ad               String,
    is_organic       UInt8,
    source_link_tag  String,
    _version         UInt64,
    is_deleted       UInt8,
    ad_key           UInt64 DEFAULT cityHash64(platform, ad)
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(click_date)
ORDER BY (account_id, lead_key, lead_id, click_date, id)
-- small granules: the converting paths read a few thousand leads' key ranges
SETTINGS index_granularity = 1024;
