-- ads gains source_level (PostgreSQL V97; its meaning in tables/ads.sql) and ads_current shows it.
@column ads.source_level
@view ads_current
