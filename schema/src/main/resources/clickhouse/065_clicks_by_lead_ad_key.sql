-- clicks_by_lead gains ad_key = cityHash64(platform, ad): the scientific chain's statements read and look up one number
-- per click instead of the two strings (about half the CPU of reading a range's clicks at 1 M leads; docs/BENCHMARKS.md).
-- 18.16's materialized views push only the columns they select: while clicks_by_lead has a column its view lacks,
-- an insert into clicks fails ("Expected column ad_key: while pushing to view"). So the column comes first, then the
-- view that fills it (clicks_by_lead_feed_v2), then the old view goes. An insert into clicks in between fails and is
-- retried by the sink (no version is lost); one copied by both views is the same version twice (harmless: see 064).
-- Current releases fill a column a view lacks with its default, so the same steps hold there.
@column clicks_by_lead.ad_key
@view clicks_by_lead_feed_v2

DROP TABLE IF EXISTS {db}.clicks_by_lead_feed;

-- the rows copied before this file read the column's DEFAULT (computed on read) until this mutation has written it
ALTER TABLE {db}.clicks_by_lead UPDATE ad_key = cityHash64(platform, ad) WHERE 1;
