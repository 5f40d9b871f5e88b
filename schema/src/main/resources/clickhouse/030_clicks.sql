-- Clicks as streamed from PostgreSQL `clicks` (spec 2.11, 4.11): the table and its current-row view, as defined in tables/clicks.sql and views/clicks_current.sql.
@table clicks
@view clicks_current
