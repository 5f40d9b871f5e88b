-- The clicks of `clicks` that name a lead, laid out by lead (tables/clicks_by_lead.sql), fed by its materialized view,
-- and the clicks streamed before this file copied in (ad_key, added by 065, takes its DEFAULT: a fresh database
-- creates the table with it and the feed that fills it at once; a database that ran this file before 065 existed
-- gets both from 065).
@table clicks_by_lead
@view clicks_by_lead_feed_v2

-- the clicks streamed before this file (a click copied twice by a concurrent insert is the same version: harmless)
INSERT INTO {db}.clicks_by_lead (account_id, lead_id, lead_key, lead_check, click_date, id, platform, ad, is_organic, source_link_tag, _version, is_deleted)
SELECT account_id, lead_id, cityHash64(lead_id) AS lead_key, farmHash64(lead_id) AS lead_check, click_date, id, integration_type AS platform, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad,
       is_organic, source_link_tag, _version, is_deleted
FROM {db}.clicks
WHERE lead_id != '';
