-- The per-conversion attribution projection (PostgreSQL V46): the table and its current-row view, as defined in tables/conversion_touches.sql and views/conversion_touches_current.sql.
@table conversion_touches
@view conversion_touches_current
