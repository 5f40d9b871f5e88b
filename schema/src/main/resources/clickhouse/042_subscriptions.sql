-- Subscriptions as streamed from PostgreSQL `subscriptions`: the table and its current-row view, as defined in tables/subscriptions.sql and views/subscriptions_current.sql.
@table subscriptions
@view subscriptions_current
