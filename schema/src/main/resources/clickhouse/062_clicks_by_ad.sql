-- The clicks of `clicks` laid out by ad (tables/clicks_by_ad.sql), fed by clicks_by_ad_feed, and the clicks streamed
-- before this file copied in.
@table clicks_by_ad
@view clicks_by_ad_feed

-- the clicks streamed before this file (a click copied twice by a concurrent insert is the same version: harmless)
INSERT INTO {db}.clicks_by_ad
SELECT account_id, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad, integration_type AS platform, click_date, id,
       lead_id, source_link_tag, is_organic, _version, is_deleted
FROM {db}.clicks;
