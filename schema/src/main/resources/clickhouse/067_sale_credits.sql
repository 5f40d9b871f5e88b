-- The sales' attribution rows by ad (PostgreSQL V103): the table and its current-row view, as defined in
-- tables/sale_credits.sql and views/sale_credits_current.sql, and the rows of the sales streamed before this file
-- derived from conversion_touches and sales (derived/sale_credits.sql). PostgreSQL's migration fills its own table
-- before the bridge adds it to the publication, so those rows do not stream; every later change does.
@table sale_credits
@view sale_credits_current
@derive sale_credits
