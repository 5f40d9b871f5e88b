-- Sales as streamed from PostgreSQL `sales`: the table and its current-row view, as defined in tables/sales.sql and views/sales_current.sql.
@table sales
@view sales_current
