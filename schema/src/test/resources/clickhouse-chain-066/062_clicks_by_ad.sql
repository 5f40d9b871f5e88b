-- The clicks of `clicks` laid out by ad: every version of every click, copied on insert by the materialized view
-- clicks_by_ad_feed, sorted by (account_id, ad, platform, click_date, id) so that a report over a few ads and a date
-- range reads only those ads' clicks of those days (clicks itself is sorted by click id). A click's date, platform
-- and ad ids are written once (POST /clicks; later updates set its lead, source tag or kind), so the sort key holds
-- one click per id and the dedup rule is that of clicks: newest _version per id, dropped when is_deleted.
-- `cdc resync --table clicks` rebuilds this table's rows of the resynced range too; erasure treats it as a lead table.
CREATE TABLE IF NOT EXISTS {db}.clicks_by_ad (
    account_id       String,
    ad               String,
    platform         String,
    click_date       DateTime('UTC'),
    id               String,
    lead_id          String,
    source_link_tag  String,
    is_organic       UInt8,
    _version         UInt64,
    is_deleted       UInt8
) ENGINE = {{ReplacingMergeTree(_version)}}
PARTITION BY toYYYYMM(click_date)
ORDER BY (account_id, ad, platform, click_date, id)
-- small granules: a report reads a few ads' key ranges, so less is read past each range's ends
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.clicks_by_ad_feed TO {db}.clicks_by_ad AS
SELECT account_id, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad, integration_type AS platform, click_date, id,
       lead_id, source_link_tag, is_organic, _version, is_deleted
FROM {db}.clicks;

-- the clicks streamed before this file (a click copied twice by a concurrent insert is the same version: harmless)
INSERT INTO {db}.clicks_by_ad
SELECT account_id, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad, integration_type AS platform, click_date, id,
       lead_id, source_link_tag, is_organic, _version, is_deleted
FROM {db}.clicks;
