-- clicks_by_lead gains ad_key = cityHash64(platform, ad): the scientific chain's statements read and look up one number
-- per click instead of the two strings (about half the CPU of reading a range's clicks at 1 M leads; docs/BENCHMARKS.md).
-- 18.16's materialized views push only the columns they select: while clicks_by_lead has a column its view lacks,
-- an insert into clicks fails ("Expected column ad_key: while pushing to view"). So the column comes first, then the
-- view that fills it, then the old view goes. An insert into clicks in between fails and is retried by the sink (no
-- version is lost); one copied by both views is the same version twice (harmless: see 064). Current releases fill a
-- column a view lacks with its default, so the same steps hold there.
ALTER TABLE {db}.clicks_by_lead ADD COLUMN ad_key UInt64 DEFAULT cityHash64(platform, ad);

CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.clicks_by_lead_feed_v2 TO {db}.clicks_by_lead AS
SELECT account_id, lead_id, cityHash64(lead_id) AS lead_key, farmHash64(lead_id) AS lead_check, click_date, id, integration_type AS platform, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad,
       is_organic, source_link_tag, _version, is_deleted, cityHash64(integration_type, if(adspend_ad_id != '', adspend_ad_id, ad_source_id)) AS ad_key
FROM {db}.clicks
WHERE lead_id != '';

DROP TABLE IF EXISTS {db}.clicks_by_lead_feed;

-- the rows copied before this file read the column's DEFAULT (computed on read) until this mutation has written it
ALTER TABLE {db}.clicks_by_lead UPDATE ad_key = cityHash64(platform, ad) WHERE 1;
