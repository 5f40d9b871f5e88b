-- Daily ad spend as streamed from PostgreSQL `ad_spend_daily`: the table and its current-row view, as defined in tables/ad_spend_daily.sql and views/ad_spend_daily_current.sql.
@table ad_spend_daily
@view ad_spend_daily_current
