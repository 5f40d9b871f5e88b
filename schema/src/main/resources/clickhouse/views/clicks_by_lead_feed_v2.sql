-- Copies every version of every click with a lead into clicks_by_lead on insert, with ad_key (065 replaced
-- clicks_by_lead_feed, which lacked it: 18.16 fails an insert through a view that lacks a column of its target).
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.clicks_by_lead_feed_v2 TO {db}.clicks_by_lead AS
SELECT account_id, lead_id, cityHash64(lead_id) AS lead_key, farmHash64(lead_id) AS lead_check, click_date, id, integration_type AS platform, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad,
       is_organic, source_link_tag, _version, is_deleted, cityHash64(integration_type, if(adspend_ad_id != '', adspend_ad_id, ad_source_id)) AS ad_key
FROM {db}.clicks
WHERE lead_id != '';
