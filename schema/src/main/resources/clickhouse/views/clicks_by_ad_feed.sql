-- Copies every version of every click into clicks_by_ad on insert (a materialized view: never dropped to redefine;
-- a new definition is a new view, as clicks_by_lead_feed_v2 replaced clicks_by_lead_feed).
CREATE MATERIALIZED VIEW IF NOT EXISTS {db}.clicks_by_ad_feed TO {db}.clicks_by_ad AS
SELECT account_id, if(adspend_ad_id != '', adspend_ad_id, ad_source_id) AS ad, integration_type AS platform, click_date, id,
       lead_id, source_link_tag, is_organic, _version, is_deleted
FROM {db}.clicks;
