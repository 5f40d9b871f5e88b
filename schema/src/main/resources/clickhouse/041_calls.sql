-- Calls as streamed from PostgreSQL `calls`: the table and its current-row view, as defined in tables/calls.sql and views/calls_current.sql.
@table calls
@view calls_current
