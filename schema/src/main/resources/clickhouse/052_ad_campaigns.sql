-- Campaigns of the ad hierarchy (spec 2.17): the table and its current-row view, as defined in tables/ad_campaigns.sql and views/ad_campaigns_current.sql.
@table ad_campaigns
@view ad_campaigns_current
