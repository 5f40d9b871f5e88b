-- Ads (spec 2.13): the table and its current-row view, as defined in tables/ads.sql and views/ads_current.sql.
@table ads
@view ads_current
